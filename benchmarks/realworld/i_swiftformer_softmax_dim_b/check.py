import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_i_swiftformer_softmax_dim_b_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(t, model):
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(6):
        for i in range(0, len(x), 64):
            opt.zero_grad()
            t["loss_fn"](model(x[i : i + 64]), y[i : i + 64]).backward()
            opt.step()
    vx, vy = t["val_data"]
    with torch.no_grad():
        return t["metric_fn"](model(vx), vy)


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    torch.manual_seed(0)
    model = mod.TokenClassifier()
    acc = _train(t, model)
    weights = model.pool.last_weights
    all_ones = bool(torch.allclose(weights, torch.ones_like(weights)))
    torch.manual_seed(0)
    fixed = mod.TokenClassifier()

    def over_tokens(self, x):  # the same pooling, weights normalised across the N tokens
        q = self.to_query(x)
        a = ((q @ self.w_g) * self.scale).softmax(dim=1)
        return self.proj((a * q).sum(dim=1))

    fixed.pool.forward = over_tokens.__get__(fixed.pool)
    acc_fixed = _train(t, fixed)
    assert all_ones and acc < 0.75 and acc_fixed > acc + 0.15, (all_ones, acc, acc_fixed)
    return (
        f"every attention weight is exactly 1.0; val accuracy {acc:.2f} "
        f"(weights normalised over tokens: {acc_fixed:.2f})"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_j_visdial_softmax_dim_b_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, t, dim):
    torch.manual_seed(0)
    model = mod.DiscriminativeDecoder()

    def fwd(x):
        q, o = x[:, 0], x[:, 1:]
        return F.log_softmax((model.opt_enc(o) * model.enc(q)[:, None, :]).sum(-1), dim=dim)

    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(5):
        for i in range(0, len(x), 32):
            opt.zero_grad()
            t["loss_fn"](fwd(x[i : i + 32]), y[i : i + 32]).backward()
            opt.step()
    vx, vy = t["val_data"]
    out = []
    with torch.no_grad():
        for bs in (32, 8):  # evaluated batch by batch, at two batch sizes
            acc = [t["metric_fn"](fwd(vx[i : i + bs]), vy[i : i + bs]) for i in range(0, len(vx), bs)]
            out.append(sum(acc) / len(acc))
    return out


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    (bad, bad8), (good, good8) = _train(mod, t, 0), _train(mod, t, 1)
    assert good > 0.85 and bad < good - 0.1, (bad, good)
    assert abs(good - good8) < 1e-6 and abs(bad - bad8) > 0.01, (bad, bad8, good, good8)
    return (f"recall@1 over 10 options: {bad:.2f} (batch 32) / {bad8:.2f} (batch 8) with softmax over the batch, "
            f"{good:.2f} over the options")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

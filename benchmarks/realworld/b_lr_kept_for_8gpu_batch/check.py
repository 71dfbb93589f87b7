import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_b_lr_kept_for_8gpu_batch_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, lr, steps=200):
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, weight_decay=1e-4)
    x, y = t["train_data"]
    g = torch.Generator().manual_seed(0)
    losses = []
    for _ in range(steps):
        idx = torch.randint(0, len(x), (8,), generator=g)
        opt.zero_grad()
        loss = loss_fn(model(x[idx]), y[idx])
        loss.backward()
        opt.step()
        losses.append(float(loss.detach()))
    return losses


def _check() -> str:
    mod = _load()
    hi = _train(mod, mod.BASE_LR)
    lo = _train(mod, mod.BASE_LR / 8)
    bad = next((i for i, v in enumerate(hi) if not math.isfinite(v) or v > 1e3), None)
    assert bad is not None and math.isfinite(lo[-1]) and lo[-1] < lo[0], (bad, lo[0], lo[-1])
    return (f"lr={mod.BASE_LR}: loss non-finite/exploded at step {bad}; lr={mod.BASE_LR / 8}: "
            f"loss {lo[0]:.3f} -> {lo[-1]:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

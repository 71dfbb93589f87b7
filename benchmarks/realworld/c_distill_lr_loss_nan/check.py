import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_c_distill_lr_loss_nan_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(t, lr_scale):
    torch.manual_seed(0)
    model = _load().LeNet()
    opt = t["optimizer"](model.parameters())
    for group in opt.param_groups:
        group["lr"] *= lr_scale
    x, y = t["train_data"]
    losses = []
    for step in range(60):
        i = (step * 32) % 512
        opt.zero_grad()
        loss = t["loss_fn"](model(x[i : i + 32]), y[i : i + 32])
        losses.append(loss.item())
        if not math.isfinite(losses[-1]):
            break
        loss.backward()
        opt.step()
    return losses


def _check() -> str:
    t = _load().make_target()
    high, low = _run(t, 1.0), _run(t, 0.1)
    assert not math.isfinite(high[-1]) and all(math.isfinite(v) for v in low), (high[-3:], low[-3:])
    assert low[-1] < low[0], low
    lr = t["optimizer"](_load().LeNet().parameters()).param_groups[0]["lr"]
    return (
        f"lr {lr}: loss {high[0]:.2f} -> {high[-1]} at step {len(high)}; "
        f"lr {lr / 10}: {low[0]:.2f} -> {low[-1]:.3f} after 60 steps"
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

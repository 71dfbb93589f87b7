"""Fit the quadratic target with the linear model's learning rate vs a learning rate sized for the x^2 feature."""

import importlib.util
import math
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("y_stanfordtf_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _fit(lr=None, steps=2000):
    tg = _t.make_target()
    model = tg["model"]
    opt = tg["optimizer"](model.parameters()) if lr is None else torch.optim.SGD(model.parameters(), lr=lr)
    x, y = tg["batch"]
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = tg["loss_fn"](model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def _check() -> str:
    bad = _fit(steps=50)
    good = _fit(lr=8e-7)
    first_bad = next(i for i, v in enumerate(bad) if not math.isfinite(v))
    assert first_bad <= 20 and bad[3] > 100 * bad[0], bad[:4]
    assert all(math.isfinite(v) for v in good), good[-5:]
    assert good[-1] < 0.6 * good[0] and good[-1] <= min(good), (good[0], good[-1])
    return (f"lr=0.001: loss {bad[0]:.0f} -> {bad[1]:.3g} -> {bad[2]:.3g} -> {bad[3]:.3g}, inf/nan from step "
            f"{first_bad + 1}; lr=8e-7: loss {good[0]:.0f} -> {good[-1]:.1f} over 2000 steps")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

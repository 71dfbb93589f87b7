"""Fit a 140 kg and a 160 kg subject; then the 160 kg subject with a stable softplus."""

import importlib.util
import math
from pathlib import Path

import torch
import torch.nn.functional as F

_spec = importlib.util.spec_from_file_location("z_smplify_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _clamped_loss(out, target):
    height, mass = out[:, 0], out[:, 1]
    t_height, t_mass = target[:, 0], target[:, 1]
    gap = mass - t_mass
    return 100 * ((height - t_height) ** 2).mean() + (F.softplus(gap) + F.softplus(-gap)).mean()


def _fit(weight, loss_fn=None):
    tgt = _t.make_target(weight)
    model, (x, y) = tgt["model"], tgt["batch"]
    loss_fn = loss_fn or tgt["loss_fn"]
    opt = tgt["optimizer"](model.parameters())
    first = None
    for _ in range(200):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        first = loss.item() if first is None else first
        loss.backward()
        opt.step()
    with torch.no_grad():
        mass = model(x)[0, 1].item()
    return first, mass


def _check() -> str:
    l140, m140 = _fit(140.0)
    l160, m160 = _fit(160.0)
    _, m160_ok = _fit(160.0, _clamped_loss)
    assert math.isfinite(l140) and abs(m140 - 140) < 10, (l140, m140)
    assert math.isinf(l160) and math.isnan(m160), (l160, m160)
    assert abs(m160_ok - 160) < 10, m160_ok
    return (f"140 kg: first loss {l140:.3g}, fitted mass {m140:.1f}; 160 kg: first loss {l160}, fitted mass "
            f"{m160}; 160 kg with a stable softplus: fitted mass {m160_ok:.1f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

"""Accumulated gradient vs one big batch, and training with the summed vs the averaged micro-batch loss."""

import importlib.util
import math
from pathlib import Path

import torch
import torch.nn.functional as F

_spec = importlib.util.spec_from_file_location("z_dp_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _grad_ratio():
    torch.manual_seed(0)
    model = _t.make_model()
    x, y = _t.make_data(torch.Generator().manual_seed(0), 256)
    F.mse_loss(model(x), y).backward()
    full = torch.cat([p.grad.flatten() for p in model.parameters()]).norm()
    opt = torch.optim.SGD(model.parameters(), lr=0.0)
    _t.train_step(model, (x, y), opt, F.mse_loss)
    model.zero_grad()
    for xs, ys in zip(x.chunk(_t.ACC_FREQ), y.chunk(_t.ACC_FREQ)):
        F.mse_loss(model(xs), ys).backward()
    acc = torch.cat([p.grad.flatten() for p in model.parameters()]).norm()
    return (acc / full).item()


def _train(divide):
    torch.manual_seed(0)
    model = _t.make_model()
    opt = torch.optim.SGD(model.parameters(), lr=0.08)
    g = torch.Generator().manual_seed(1)
    for _ in range(100):
        x, y = _t.make_data(g, 256)
        opt.zero_grad()
        for xs, ys in zip(x.chunk(_t.ACC_FREQ), y.chunk(_t.ACC_FREQ)):
            loss = F.mse_loss(model(xs), ys)
            (loss / _t.ACC_FREQ if divide else loss).backward()
        opt.step()
    xv, yv = _t.make_data(torch.Generator().manual_seed(9), 512)
    with torch.no_grad():
        return F.mse_loss(model(xv), yv).item()


def _check() -> str:
    ratio = _grad_ratio()
    bad, good = _train(False), _train(True)
    assert abs(ratio - _t.ACC_FREQ) < 1.0, ratio
    assert (not math.isfinite(bad)) or bad > 10 * good, (bad, good)
    assert good < 2.0, good
    return (f"accumulated gradient norm = {ratio:.2f}x the big-batch gradient (acc_freq {_t.ACC_FREQ}); after 100 "
            f"updates at lr 0.08: val MSE {bad:.3g} summing micro-batch losses vs {good:.3f} dividing by acc_freq")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

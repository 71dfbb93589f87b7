"""Full-batch Adam on the target's raw data vs the same net on standardised x and y; compare R^2."""

import importlib.util
from pathlib import Path

import torch
from torch import nn

_spec = importlib.util.spec_from_file_location("n_x4_target", Path(__file__).with_name("target.py"))
T = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(T)


def _fit(x, y, steps=400):
    torch.manual_seed(0)
    m = T.model_fn()
    opt = torch.optim.Adam(m.parameters(), lr=1e-2)
    for _ in range(steps):
        opt.zero_grad()
        loss = nn.functional.mse_loss(m(x), y)
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = m(x)
    return pred


def _r2(pred, y):
    return 1 - ((pred - y) ** 2).sum().item() / ((y - y.mean()) ** 2).sum().item()


def _check() -> str:
    x, y = T.make_data()
    raw_pred = _fit(x, y)
    xs, ys = (x - x.mean()) / x.std(), (y - y.mean()) / y.std()
    sc_pred = _fit(xs, ys) * y.std() + y.mean()
    r2_raw, r2_sc = _r2(raw_pred, y), _r2(sc_pred, y)
    spread = (raw_pred.max() - raw_pred.min()).item()
    assert r2_raw < 0.2 and r2_sc > 0.95, (r2_raw, r2_sc)
    return (f"raw x in [-100,100], y up to {y.max():.1e}: R^2 {r2_raw:.3f} (predictions span only {spread:.1f}); "
            f"standardised x and y: R^2 {r2_sc:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    torch.set_flush_denormal(True)  # saturated sigmoids produce denormals that only slow the CPU down
    try:
        return _check()
    finally:
        torch.set_flush_denormal(False)
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

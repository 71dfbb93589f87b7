"""A short run on raw-scale windows vs the same run on standardised windows."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _load():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("t_forecast_target", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def _run(t, x, y, scale):
    torch.manual_seed(0)
    m = t.Forecaster()
    opt = torch.optim.Adam(m.parameters(), lr=1e-3)
    mu, sd = (x.mean(), x.std()) if scale else (0.0, 1.0)
    xs, ys = (x - mu) / sd, (y - mu) / sd
    for step in range(150):
        i = (step * 64) % 192
        loss = F.mse_loss(m(xs[i:i + 64]), ys[i:i + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = m(xs[192:]) * sd + mu
    return F.mse_loss(pred, y[192:]).item(), pred.mean().item()


def _check() -> str:
    t = _load()
    x, y = t.windows()
    raw_mse, raw_mean = _run(t, x, y, False)
    std_mse, std_mean = _run(t, x, y, True)
    assert raw_mse > 5 * std_mse, (raw_mse, std_mse, raw_mean)
    return (f"150 steps on raw values: val MSE {raw_mse:.0f}, mean prediction {raw_mean:.1f} vs target mean "
            f"{y.mean().item():.1f}; on standardised values: val MSE {std_mse:.0f}, mean prediction {std_mean:.1f}")

def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())


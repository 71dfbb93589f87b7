"""Train the tile head with the broadcasting gated loss and with the squeezed one; compare per-tile errors."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("y_bliss_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _run(loss_fn):
    torch.manual_seed(0)
    model = _t.TileHead()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    tiles, target = _t.make_data()
    logged = []
    for _ in range(300):
        opt.zero_grad()
        loss = loss_fn(model(tiles), target)
        loss.backward()
        opt.step()
        logged.append(loss.item())
    vt, (vtruth, von) = _t.make_data(512, seed=1)
    with torch.no_grad():
        pred = model(vt).squeeze(-1)
    m = von.bool()
    err = ((pred - vtruth)[m] ** 2).mean().item()
    return logged, err, pred[m].std().item(), vtruth[m].std().item()


def _check() -> str:
    logged, err, spread, truth_spread = _run(_t.gated_mse)
    logged_ok, err_ok, spread_ok, _ = _run(_t.gated_mse_fixed)
    assert err > 5 * err_ok and err > 0.5 * truth_spread ** 2, (err, err_ok)
    assert spread < 0.35 * truth_spread and spread_ok > 0.8 * truth_spread, (spread, spread_ok, truth_spread)
    assert logged[-1] < logged[0], (logged[0], logged[-1])
    return (f"broadcast gated loss: logged {logged[0]:.2f} -> {logged[-1]:.2f}, per-tile val MSE {err:.3f}, "
            f"prediction spread {spread:.3f} vs truth spread {truth_spread:.3f}; squeezed: val MSE {err_ok:.4f}, "
            f"spread {spread_ok:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

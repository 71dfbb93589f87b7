"""Fit the same MLP on the raw-scale data and on the data divided by its maximum; compare relative errors."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("t_aifeynman_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit(mod, sx, sy):
    t = mod.make_target()
    model = t["model"]
    x, y = t["train_data"]
    opt = t["optimizer"](model.parameters())
    xs, ys = x / sx, y / sy
    for _ in range(300):
        opt.zero_grad()
        loss = t["loss_fn"](model(xs), ys)
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = model(xs) * sy
        rel = ((pred - y).pow(2).mean().sqrt() / y.std()).item()
        flat = (pred.std() / y.std()).item()
    return rel, flat


def _check() -> str:
    mod = _load()
    raw_rel, raw_flat = _fit(mod, 1.0, 1.0)
    x, y = mod.make_target()["train_data"]
    mx, my = x.max().item(), y.max().item()
    norm_rel, norm_flat = _fit(mod, mx, my)
    assert raw_rel > 0.9 and raw_flat < 0.1, (raw_rel, raw_flat)
    assert norm_rel < 0.3 and norm_rel < raw_rel / 3, (norm_rel, raw_rel)
    return (
        f"raw 1e4..5e4 values: rmse/std {raw_rel:.2f}, prediction spread {raw_flat:.3f} of target spread (flat fit); "
        f"each column divided by its max ({mx:.0f}, {my:.0f}): rmse/std {norm_rel:.2f}"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

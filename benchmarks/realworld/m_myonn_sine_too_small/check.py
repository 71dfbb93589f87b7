"""The 1-unit net plateaus with train error ~ val error (no gap); a 32-unit hidden layer fits the sine."""

import importlib.util
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("m_myonn_target", HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit(mod, model, t, steps=700, opt=None):
    opt = opt or t["optimizer"](model.parameters())
    x, y = t["train_data"]
    xv, yv = t["val_data"]
    loss_fn = t["loss_fn"]
    hist = []
    for s in range(steps):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        if s % 100 == 99:
            hist.append(loss.item())
    with torch.no_grad():
        return loss_fn(model(x), y).item(), loss_fn(model(xv), yv).item(), hist


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    tr, va, hist = _fit(mod, t["model"], t)
    torch.manual_seed(0)
    big = torch.nn.Sequential(torch.nn.Linear(1, 32), torch.nn.Tanh(), torch.nn.Linear(32, 1), torch.nn.Sigmoid())
    tr_big, va_big, _ = _fit(mod, big, t, steps=900, opt=torch.optim.Adam(big.parameters(), lr=0.02))
    assert tr > 5e-3 and abs(va - tr) < 0.3 * tr, (tr, va)  # high error, no generalisation gap
    assert abs(hist[-1] - hist[-4]) < 0.15 * hist[-1], hist  # plateaued
    assert tr_big < 0.2 * tr and va_big < 0.2 * va, (tr_big, va_big)
    return (
        f"1 hidden unit: train MSE {tr:.4f}, val MSE {va:.4f}, flat over the last 300 steps; "
        f"32 tanh hidden units, same data: train {tr_big:.4f}, val {va_big:.4f}"
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

"""Train the target to convergence: train accuracy reaches 100% while validation accuracy stays well below it
the pipeline itself is correct (more data closes the gap)."""

import importlib.util
from pathlib import Path

import torch
from torch import nn


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("o_robocup_retrain_overfit_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit(t, x, y, steps=200):
    model, opt = t["model"], t["optimizer"](t["model"].parameters())
    xv, yv = t["val_data"]
    vl = []
    for _ in range(steps):
        loss = t["loss_fn"](model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            vl.append(t["loss_fn"](model(xv), yv).item())
    with torch.no_grad():
        tr = (model(x).argmax(1) == y).float().mean().item()
        va = (model(xv).argmax(1) == yv).float().mean().item()
    return tr, va, vl


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    x, y = t["train_data"]
    tr, va, vl = _fit(t, x, y)
    t2 = mod.make_target()
    xb, yb = mod.make_split(100, seed=5)
    tr_big, va_big, _ = _fit(t2, xb, yb)
    best = min(vl)
    assert tr == 1.0 and va < 0.9 and tr - va > 0.1, (tr, va)
    assert va_big > va + 0.05, (va, va_big)
    return (f"20 imgs/class: train acc {tr:.2f}, val acc {va:.2f}, val loss {best:.3f} (min) -> {vl[-1]:.3f}; "
            f"with 100 imgs/class val acc {va_big:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

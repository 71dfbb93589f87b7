"""Train the target's purely linear 2-2-1 net on XOR: loss stays at ln 2 on train and val alike; a ReLU net fits it."""

import importlib.util
from pathlib import Path

import torch
from torch import nn


def _load():
    spec = importlib.util.spec_from_file_location("s_xor_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(model, x, y, steps=500):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    lf = nn.BCEWithLogitsLoss()
    for _ in range(steps):
        opt.zero_grad()
        loss = lf(model(x), y)
        loss.backward()
        opt.step()
    return loss.item()


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    x, y = t["batch"]
    xv, yv = t["val_data"]
    train_loss = _train(model, x, y)
    with torch.no_grad():
        val_loss = nn.functional.binary_cross_entropy_with_logits(model(xv), yv).item()
        tr_acc, va_acc = mod.accuracy(model(x), y), mod.accuracy(model(xv), yv)
    assert train_loss > 0.6 and val_loss > 0.6, (train_loss, val_loss)
    assert tr_acc <= 0.8 and va_acc <= 0.8, (tr_acc, va_acc)
    torch.manual_seed(0)
    wide = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 1))
    wide_forward = lambda inp: wide(inp).squeeze(-1)  # noqa: E731
    opt = torch.optim.Adam(wide.parameters(), lr=1e-2)
    for _ in range(500):
        opt.zero_grad()
        loss = nn.functional.binary_cross_entropy_with_logits(wide_forward(x), y)
        loss.backward()
        opt.step()
    with torch.no_grad():
        wide_acc = mod.accuracy(wide_forward(xv), yv)
    assert loss.item() < 0.1 and wide_acc == 1.0, (loss.item(), wide_acc)
    return (
        f"linear 2-2-1 net on XOR: train loss {train_loss:.3f}, val loss {val_loss:.3f} (ln2=0.693), "
        f"acc {tr_acc:.2f}/{va_acc:.2f}; same data with a 16-unit ReLU layer: loss {loss.item():.3f}, val acc {wide_acc:.2f}"
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

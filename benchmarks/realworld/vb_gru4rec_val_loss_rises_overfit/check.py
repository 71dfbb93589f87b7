"""Healthy code, ordinary overfitting: train loss keeps falling while held-out loss bottoms out and rises."""
import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("vb_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    tx, ty = t["train_data"]
    vx, vy = t["val_data"]
    train, val = [], []
    for _ in range(60):
        model.train()
        opt.zero_grad()
        loss = loss_fn(model(tx), ty)
        loss.backward()
        opt.step()
        train.append(loss.item())
        model.eval()
        with torch.no_grad():
            val.append(loss_fn(model(vx), vy).item())
    best = min(range(len(val)), key=val.__getitem__)
    assert train[-1] < 0.3 * train[0], (train[0], train[-1])
    assert best < len(val) - 10, best
    assert val[-1] > val[best] + 0.5, (val[best], val[-1])
    return (f"train loss {train[0]:.2f} -> {train[-1]:.3f}; val loss bottoms at {val[best]:.2f} (epoch {best + 1}) "
            f"then rises to {val[-1]:.2f} at epoch 60")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())

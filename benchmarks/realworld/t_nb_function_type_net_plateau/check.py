"""Train the target's model and a model with a hidden layer on the same data; compare train/val accuracy."""

import importlib.util
from pathlib import Path

import torch
from torch import nn

_HERE = Path(__file__).resolve().parent


def _fit(model, t, epochs=30):
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    g = torch.Generator().manual_seed(0)
    for _ in range(epochs):
        perm = torch.randperm(x.shape[0], generator=g)
        for i in range(0, x.shape[0], 20):
            idx = perm[i:i + 20]
            loss = t["loss_fn"](model(x[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    xv, yv = t["val_data"]
    with torch.no_grad():
        return t["metric_fn"](model(x), y), t["metric_fn"](model(xv), yv), t["loss_fn"](model(x), y).item()


def _check() -> str:
    spec = importlib.util.spec_from_file_location("t_uf_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    t = mod.make_target()
    tr, va, tr_loss = _fit(t["model"], t)
    torch.manual_seed(0)
    bigger = nn.Sequential(nn.Linear(mod.N_POINTS, 64), nn.ReLU(), nn.Linear(64, 3))
    tr2, va2, _ = _fit(bigger, t)
    assert tr < 0.6 and abs(tr - va) < 0.1, (tr, va)
    assert va2 > va + 0.3, (va, va2)
    return (f"given model: train acc {tr:.2f}, val acc {va:.2f}, train loss {tr_loss:.2f} (both low, no gap); "
            f"with a 64-unit ReLU hidden layer: train {tr2:.2f}, val {va2:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

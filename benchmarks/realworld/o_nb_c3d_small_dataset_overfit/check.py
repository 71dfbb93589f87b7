"""Self-contained: a large model on a few examples per class memorises them; the same code with more data generalises."""

import torch
from torch import nn
import torch.nn.functional as F


def _data(n_per_cls, seed, n_cls=10, d=64):
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(n_cls, d, generator=torch.Generator().manual_seed(123))
    y = torch.arange(n_cls).repeat_interleave(n_per_cls)
    x = 0.4 * protos[y] + torch.randn(len(y), d, generator=g) * 1.2
    return x, y


def _train(n_per_cls):
    torch.manual_seed(0)
    x, y = _data(n_per_cls, 1)
    xv, yv = _data(50, 2)
    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 10))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    val_losses = []
    for epoch in range(30):
        for i in range(0, len(x), 32):
            loss = F.cross_entropy(model(x[i:i + 32]), y[i:i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            val_losses.append(F.cross_entropy(model(xv), yv).item())
    with torch.no_grad():
        tr = (model(x).argmax(1) == y).float().mean().item()
        va = (model(xv).argmax(1) == yv).float().mean().item()
    return tr, va, val_losses


def _check() -> str:
    tr, va, vl = _train(8)
    tr_big, va_big, _ = _train(60)
    best = min(range(len(vl)), key=vl.__getitem__)
    assert tr > 0.97 and tr - va > 0.3, (tr, va)
    assert va_big > va + 0.15, (va, va_big)
    return (f"8 examples/class: train acc {tr:.2f}, val acc {va:.2f}, val loss best {vl[best]:.2f} (epoch {best}), last {vl[-1]:.2f}; "
            f"same code with 60/class: val acc {va_big:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

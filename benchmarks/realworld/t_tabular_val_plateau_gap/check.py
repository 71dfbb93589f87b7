"""Self-contained: a wide MLP on a small noisy dataset reaches 100% train accuracy while validation stays clearly lower."""

import torch
from torch import nn


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    n, d = 1400, 20
    x = torch.randn(n, d, generator=g)
    w = torch.randn(d, generator=g)
    y = ((x @ w) / d**0.5 + 0.4 * torch.randn(n, generator=g) > 0).long()
    xt, yt, xv, yv = x[:1120], y[:1120], x[1120:], y[1120:]
    model = nn.Sequential(nn.Linear(d, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 2))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(400):
        opt.zero_grad()
        nn.functional.cross_entropy(model(xt), yt).backward()
        opt.step()
    with torch.no_grad():
        tr = (model(xt).argmax(1) == yt).float().mean().item()
        va = (model(xv).argmax(1) == yv).float().mean().item()
    assert tr >= 0.99 and tr - va > 0.05, (tr, va)
    return f"train accuracy {tr:.3f}, validation accuracy {va:.3f}: the network memorised the training split"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())


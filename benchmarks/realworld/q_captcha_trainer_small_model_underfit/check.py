"""Self-contained: a too-small model stays at high loss on train and val alike; a wider one fits."""

import torch
from torch import nn


def _fit(hidden, x, y, xv, yv):
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Linear(hidden, 4))
    opt = torch.optim.Adam(m.parameters(), lr=1e-2)
    lf = nn.CrossEntropyLoss()
    for _ in range(300):
        opt.zero_grad()
        loss = lf(m(x), y)
        loss.backward()
        opt.step()
    with torch.no_grad():
        return loss.item(), lf(m(xv), yv).item()


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    def data(n):
        x = torch.rand(n, 2, generator=g) * 4 - 2
        y = ((torch.sin(3 * x[:, 0]) > 0).long() * 2 + (torch.cos(3 * x[:, 1]) > 0).long())
        return x, y
    x, y = data(600)
    xv, yv = data(300)
    small = _fit(1, x, y, xv, yv)
    big = _fit(64, x, y, xv, yv)
    assert small[0] > 1.0 and abs(small[0] - small[1]) < 0.15 and big[0] < 0.6 * small[0], (small, big)
    return f"1 hidden unit: train {small[0]:.3f} / val {small[1]:.3f}; 64 units: train {big[0]:.3f} / val {big[1]:.3f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

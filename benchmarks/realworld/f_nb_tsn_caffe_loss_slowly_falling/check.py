"""A harder classification task at a modest learning rate: the loss falls slowly but steadily; it needs more steps."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(20, 32, generator=torch.Generator().manual_seed(0)) * 0.6
    y = torch.randint(0, 20, (n,), generator=g)
    return centers[y] + torch.randn(n, 32, generator=g), y


def _curve(steps):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 20))
    opt = torch.optim.SGD(model.parameters(), lr=0.003)
    x, y = _data(4096, 1)
    losses = []
    for s in range(steps):
        i = (s * 64) % 4096
        loss = F.cross_entropy(model(x[i : i + 64]), y[i : i + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    window = lambda a, b: sum(losses[a:b]) / (b - a)  # noqa: E731
    return window(0, 50), window(150, 200), window(250, 300), window(steps - 50, steps)


def _check() -> str:
    start, w1, w2, end = _curve(3000)
    assert w1 - w2 < 0.15 * w1 and w2 < w1 < start, (start, w1, w2)  # two windows look alike, yet falling
    assert end < 0.6 * w2, (w2, end)  # ten times more steps: much lower
    return f"loss {start:.2f} -> {w1:.2f} -> {w2:.2f} over 300 steps (slow but falling); {end:.2f} after 3000 steps"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

"""A too-narrow network on a task that needs more capacity: its training error levels off high however long it
trains, while a wider copy of it fits the same data."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(n, 2, generator=g) * 6 - 3
    y = ((torch.sin(2 * x[:, 0]) + torch.cos(2 * x[:, 1])) > 0).long() + 2 * (x[:, 0] * x[:, 1] > 0).long()
    return x, y


def _train_error(width, epochs):
    torch.manual_seed(0)
    x, y = _data(1024, 1)
    model = nn.Sequential(nn.Linear(2, width), nn.Tanh(), nn.Linear(width, 4))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    curve = []
    for _ in range(epochs):
        for i in range(0, 1024, 128):
            loss = F.cross_entropy(model(x[i : i + 128]), y[i : i + 128])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            curve.append((model(x).argmax(1) != y).float().mean().item())
    return curve


def _check() -> str:
    small = _train_error(3, 150)
    wide = _train_error(128, 150)
    assert small[-1] > 0.2 and abs(small[-1] - small[-50]) < 0.03, (small[-50], small[-1])
    assert wide[-1] < 0.5 * small[-1], (wide[-1], small[-1])
    return f"train error of the narrow net {small[-50]:.2f} at epoch 100, {small[-1]:.2f} at 150; wide net {wide[-1]:.2f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

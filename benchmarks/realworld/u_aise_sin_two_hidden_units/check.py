"""Self-contained: a 2-hidden-unit tanh MLP plateaus on sin(x) over several periods; a wider one fits it."""

import torch
from torch import nn


def _fit(hidden: int, x, y, steps=1000):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(1, hidden), nn.Tanh(), nn.Linear(hidden, 1))
    opt = torch.optim.Adam(model.parameters(), lr=2e-2)
    mse = nn.MSELoss()
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = mse(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    x = torch.rand(1000, 1, generator=g) * 20 - 10
    y = torch.sin(x)
    small = _fit(2, x, y)
    wide = _fit(32, x, y)
    assert small[-1] > 0.08, small[-1]
    assert abs(small[-1] - small[-500]) < 0.02 * max(small[-500], 1e-6) + 0.01, (small[-500], small[-1])
    assert wide[-1] < 0.25 * small[-1], (wide[-1], small[-1])
    return (f"2 hidden tanh units: MSE {small[0]:.3f} -> {small[-500]:.3f} -> {small[-1]:.3f} (plateau); "
            f"32 units: MSE {wide[-1]:.4f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

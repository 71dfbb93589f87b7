"""Self-contained: a too-small MLP on sin(x) plateaus with train error ~ val error; a wider one fits. No defect."""

import torch
from torch import nn


def _fit(width, steps=600, seed=0, act=nn.ReLU):
    torch.manual_seed(seed)
    g = torch.Generator().manual_seed(1)
    x = torch.rand(1000, 1, generator=g) * 6.2832
    y = torch.sin(x)
    xv = torch.rand(200, 1, generator=g) * 6.2832
    yv = torch.sin(xv)
    net = nn.Sequential(nn.Linear(1, width), act(), nn.Linear(width, 1))
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    hist = []
    for i in range(steps):
        opt.zero_grad()
        loss = nn.functional.mse_loss(net(x), y)
        loss.backward()
        opt.step()
        hist.append(loss.item())
    with torch.no_grad():
        val = nn.functional.mse_loss(net(xv), yv).item()
    return hist, val


def _check() -> str:
    small, small_val = _fit(width=2, steps=600)
    big, big_val = _fit(width=32, steps=500, act=nn.Tanh)
    plateau = abs(small[-1] - small[-300]) / small[-300]
    assert all(torch.isfinite(torch.tensor(small)))
    assert small[-1] > 0.05 and plateau < 0.05, (small[-1], plateau)          # stuck high on its own training data
    assert abs(small_val - small[-1]) < 0.5 * small[-1], (small_val, small[-1])  # no train/val gap
    assert big[-1] < 0.2 * small[-1], (big[-1], small[-1])                    # capacity, not a broken pipeline
    return (f"MLP with 2 ReLU units: train MSE {small[0]:.3f} -> {small[-1]:.3f} (last 300 steps change {plateau:.1%}), val MSE "
            f"{small_val:.3f}; same loop with 32 tanh units: train {big[-1]:.4f}, val {big_val:.4f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

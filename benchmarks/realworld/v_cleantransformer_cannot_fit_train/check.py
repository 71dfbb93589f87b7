"""Self-contained: a too-small model plateaus at a high training loss on a task it cannot represent, yet it does
far better on a tiny subset, while a larger model fits the full training set: underfitting, not a defect."""

import torch
from torch import nn
import torch.nn.functional as F


def _train(hidden, x, y, steps=300):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(x.shape[1], hidden), nn.Tanh(), nn.Linear(hidden, 10))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(steps):
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    x = torch.rand(1000, 2, generator=g) * 2 - 1
    # ten classes laid out as a checkerboard-like pattern of the two inputs
    y = ((torch.floor((x[:, 0] + 1) * 2.5) + 5 * (torch.floor((x[:, 1] + 1) * 1.0) % 2)) % 10).long()
    small_full = _train(2, x, y)
    small_tiny = _train(2, x[:8], y[:8])
    big_full = _train(128, x, y)
    assert small_full > 0.7 and small_tiny < 0.6 * small_full and big_full < 0.2 * small_full, (small_full, small_tiny, big_full)
    return (
        f"2-unit model: train loss {small_full:.2f} on 1000 samples but {small_tiny:.2f} on 8; "
        f"128-unit model: {big_full:.2f} on the full set"
    )


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

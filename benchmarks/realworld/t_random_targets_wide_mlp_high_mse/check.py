"""Self-contained: a wide one-hidden-layer ReLU net trained with small-lr SGD on shuffled targets keeps a high training MSE."""

import torch
from torch import nn


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    x = torch.rand(100, 1, generator=g) * 8 - 3
    y = (2.0 - (x - 1).abs() + 0.5 * torch.randn(100, 1, generator=g))[torch.randperm(100, generator=g)]
    model = nn.Sequential(nn.Linear(1, 1000), nn.ReLU(), nn.Linear(1000, 1))
    opt = torch.optim.SGD(model.parameters(), lr=8e-5)
    first = None
    for step in range(1500):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        first = loss.item() if first is None else first
    final = loss.item()
    var = y.var().item()
    assert final > 0.5 * var and torch.isfinite(loss), (first, final, var)
    return f"training MSE {first:.2f} -> {final:.2f} (target variance {var:.2f}): far from fitting the training points"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())


"""DeepSets regressor for a population statistic: each example is a set of 20 scalar samples, the target is a
statistic of the distribution that produced it (here its spread). phi per element, sum pooling, rho head."""

import torch
import torch.nn as nn


class DeepSet(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.phi = nn.Sequential(nn.Linear(1, hidden), nn.ELU(), nn.Linear(hidden, hidden), nn.ELU())
        self.rho = nn.Sequential(nn.Linear(hidden, hidden), nn.ELU(), nn.Linear(hidden, 1))

    def forward(self, x):  # x: (B, N, 1)
        return self.rho(self.phi(x).mean(dim=1))  # (B, 1)


def _sets(n, seed, size=20):
    g = torch.Generator().manual_seed(seed)
    spread = 0.5 + 2.5 * torch.rand(n, generator=g)
    x = torch.randn(n, size, 1, generator=g) * spread.view(-1, 1, 1)
    return x, spread  # targets: one value per set, shape (B,)


def make_target():
    torch.manual_seed(0)
    return {
        "model": DeepSet(),
        "batch": _sets(64, 1),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": _sets(2048, 2),
        "val_data": _sets(512, 3),
    }

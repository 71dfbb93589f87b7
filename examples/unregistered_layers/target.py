"""A residual MLP whose hidden blocks live in a plain Python list."""

import torch
from torch import nn


class ResMLP(nn.Module):
    def __init__(self, dim: int = 16, depth: int = 3) -> None:
        super().__init__()
        self.inp = nn.Linear(10, dim)
        self.blocks = [nn.Sequential(nn.Linear(dim, dim), nn.ReLU()) for _ in range(depth)]
        self.out = nn.Linear(dim, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.inp(x)
        for block in self.blocks:
            h = h + block(h)
        return self.out(h)


def make_target():
    torch.manual_seed(0)
    x = torch.randn(64, 10)
    y = (x[:, 0] * x[:, 1] > 0).long()
    return {
        "model": ResMLP(),
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
    }

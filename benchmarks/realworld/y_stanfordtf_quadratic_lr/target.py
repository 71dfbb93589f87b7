"""Lecture-3 style regression of life expectancy on birth rate, extended from Y = wX + b to Y = wX^2 + uX + b."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def make_data(n=190, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(n, generator=g) * 44.0 + 1.0           # births per 1000 people, 1..45
    y = 82.0 - 0.95 * x + 0.004 * x * x + 2.5 * torch.randn(n, generator=g)
    return x, y


class Quadratic(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.zeros(()))
        self.u = nn.Parameter(torch.zeros(()))
        self.b = nn.Parameter(torch.zeros(()))

    def forward(self, x):
        return self.w * x * x + self.u * x + self.b


def make_target():
    torch.manual_seed(0)
    x, y = make_data()
    return {
        "model": Quadratic(),
        "batch": (x, y),
        "loss_fn": F.mse_loss,
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.001),  # the value that worked for the linear model
    }

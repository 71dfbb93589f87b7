"""Course-style 1-D linear regression: inputs spread over about +-10..30, plain SGD."""

import torch
from torch import nn


def make_target():
    torch.manual_seed(1)
    X = torch.randn(100, 1) * 10
    y = 3 * X + 5 + 3 * torch.randn(100, 1)
    return {
        "model": nn.Linear(1, 1),
        "batch": (X, y),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.05),
    }

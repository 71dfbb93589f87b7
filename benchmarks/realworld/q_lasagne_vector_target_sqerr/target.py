"""Single-unit regression MLP; targets kept as a 1-D vector, squared error written out by hand."""

import torch
from torch import nn

N, D = 256, 8


def make_data(seed=1):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(N, D, generator=g)
    w = torch.randn(D, generator=g) / D**0.5
    y = x @ w + 0.3 * torch.randn(N, generator=g)
    y = (y - y.mean()) / y.std()
    return x, y  # y has shape (N,)


def squared_error(pred, target):
    return ((pred - target) ** 2).mean()


def make_target():
    torch.manual_seed(0)
    x, y = make_data()
    model = nn.Sequential(nn.Linear(D, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": squared_error,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
        "train_data": (x, y),
    }

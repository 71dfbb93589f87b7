"""Book-style 1-1-1 sigmoid network regressing a scaled sine wave."""

import math

import torch
from torch import nn


def make_net(hidden=1):
    return nn.Sequential(nn.Linear(1, hidden), nn.Sigmoid(), nn.Linear(hidden, 1), nn.Sigmoid())


def make_data(n=200, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(n, 1, generator=g) * 2 * math.pi
    y = torch.sin(x)
    # scale inputs and targets into 0.01 .. 0.99 as in the book
    xs = 0.01 + 0.98 * x / (2 * math.pi)
    ys = 0.01 + 0.98 * (y + 1) / 2
    return xs, ys


def make_target():
    torch.manual_seed(0)
    x, y = make_data()
    xv, yv = make_data(n=200, seed=1)
    return {
        "model": make_net(),
        "batch": (x[:64], y[:64]),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=0.05),
        "train_data": (x, y),
        "val_data": (xv, yv),
    }

"""Regression MLP trained on raw measurements in the 1e4..5e4 range (inputs and target left unscaled)."""

import torch
from torch import nn


def make_data(n=512, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = 10000 + 40000 * torch.rand(n, 3, generator=g)
    # a smooth physical-style law on the raw scale
    y = (x[:, 0] + x[:, 1] * x[:, 2] / 40000).unsqueeze(1)
    return x, y


class Fitter(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x)


def make_target():
    torch.manual_seed(0)
    x, y = make_data()
    xv, yv = make_data(128, seed=1)
    return {
        "model": Fitter(),
        "batch": (x[:128], y[:128]),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "train_data": (x, y),
        "val_data": (xv, yv),
    }

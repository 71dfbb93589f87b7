"""Fit y = x**4 on x in [-100, 100] with raw (unscaled) inputs and targets."""

import torch
from torch import nn


def make_data():
    x = torch.arange(-100, 100, 0.5).unsqueeze(1)
    return x, x ** 4


def model_fn():
    return nn.Sequential(nn.Linear(1, 50), nn.Sigmoid(), nn.Linear(50, 50), nn.ELU(), nn.Linear(50, 1))


def make_target():
    torch.manual_seed(0)
    x, y = make_data()
    return {
        "model": model_fn(),
        "batch": (x, y),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "train_data": (x, y),
    }

"""Two-hidden-layer MLP fitted to 12 noisy samples of a smooth 1-D function; test points cover the whole interval."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _points(n, seed, noise):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(n, 1, generator=g) * 2 - 1
    return x, torch.sin(math.pi * x) + noise * torch.randn(n, 1, generator=g)


def make_model():
    return nn.Sequential(nn.Linear(1, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1))


def make_target():
    torch.manual_seed(0)
    train = _points(12, 1, 0.4)
    return {
        "model": make_model(),
        "batch": train,
        "loss_fn": lambda out, t: F.mse_loss(out, t),
        "metric_fn": lambda out, t: F.mse_loss(out, t).item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=5e-3),
        "train_data": train,
        "val_data": _points(200, 2, 0.0),
    }

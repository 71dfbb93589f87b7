"""Small MLP regressor; the loss subtracts a (batch,) target from a (batch, 1) prediction."""

import torch
import torch.nn as nn


def mse(y_hat, y):
    return ((y_hat - y) ** 2).mean()


def r2(y_hat, y):
    y_hat = y_hat.reshape(-1)
    return float(1 - ((y_hat - y) ** 2).sum() / ((y - y.mean()) ** 2).sum())


def make_data(n, g):
    x = torch.rand(n, 5, generator=g)
    y = x[:, 0] ** 2 + x[:, 1] * x[:, 2] - 4 * x[:, 3]
    return x, y


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    x, y = make_data(512, g)
    model = nn.Sequential(nn.Linear(5, 32), nn.ReLU(), nn.Linear(32, 1))
    return {
        "model": model,
        "batch": (x[:64], y[:64]),
        "loss_fn": mse,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
        "metric_fn": r2,
        "train_data": (x, y),
    }

"""Two-spirals binary classification trained with a hand-written mean-squared-error loss."""
import math

import torch
import torch.nn as nn


def two_spirals(n_points=250, noise=0.5, seed=920):
    g = torch.Generator().manual_seed(seed)
    n = torch.sqrt(torch.rand(n_points, 1, generator=g)) * 600 * (2 * math.pi) / 360
    d1x = -1.5 * torch.cos(n) * n + torch.randn(n_points, 1, generator=g) * noise
    d1y = 1.5 * torch.sin(n) * n + torch.randn(n_points, 1, generator=g) * noise
    arm = torch.cat([d1x, d1y], 1)
    x = torch.cat([arm, -arm], 0) / 10.0
    y = torch.cat([torch.zeros(n_points), torch.ones(n_points)])     # shape (2n,)
    return x, y


class MLP(nn.Module):
    def __init__(self, width=100):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(2, width), nn.ReLU(),
            nn.Linear(width, width), nn.ReLU(),
            nn.Linear(width, width), nn.ReLU(),
            nn.Linear(width, width), nn.ReLU(),
            nn.Linear(width, 1),
        )

    def forward(self, x):
        return self.net(x)                                             # shape (N, 1)


def mse(preds, targets):
    return ((preds - targets) ** 2).mean()


def accuracy(preds, targets):
    return ((preds.reshape(-1) > 0.5).float() == targets.reshape(-1)).float().mean().item()


def make_target():
    torch.manual_seed(0)
    x, y = two_spirals()
    return {
        "model": MLP(),
        "batch": (x, y),
        "loss_fn": mse,
        "metric_fn": accuracy,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "train_data": (x, y),
        "val_data": two_spirals(100, seed=7),
    }

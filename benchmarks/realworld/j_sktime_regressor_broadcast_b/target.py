"""A small 1-D conv regressor for time series; the network ends in Linear(..., 1) and the targets are a flat vector."""

import torch
import torch.nn as nn


class FCNRegressor(nn.Module):
    def __init__(self, channels=2, hidden=16):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv1d(channels, hidden, 5, padding=2), nn.ReLU(),
                                  nn.Conv1d(hidden, hidden, 3, padding=1), nn.ReLU())
        self.out = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.out(self.conv(x).mean(-1))  # (B, 1)


def series(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 2, 20, generator=g)
    y = x[:, 0].mean(-1) * 8 + x[:, 1].abs().mean(-1) * 4
    return x, y  # y is (n,)


def make_target():
    torch.manual_seed(0)
    return {
        "model": FCNRegressor(),
        "batch": series(32, 1),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "metric_fn": lambda out, y: -nn.functional.mse_loss(out.reshape(-1), y).item(),
        "train_data": series(512, 2),
        "val_data": series(256, 3),
    }

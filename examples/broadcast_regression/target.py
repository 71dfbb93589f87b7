"""An MLP regressor on synthetic data (y depends on the first three features)."""

import torch
from torch import nn

FEATURES, N = 8, 64


class Regressor(nn.Module):
    def __init__(self, features: int = FEATURES, hidden: int = 64) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(features, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)  # (N, 1)


def loss_fn(pred: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return ((pred - y) ** 2).mean()


def make_target():
    torch.manual_seed(0)
    x = torch.randn(N, FEATURES)
    y = 2.0 * x[:, 0] - x[:, 1] + 0.5 * x[:, 2]  # (N,)
    return {
        "model": Regressor(),
        "batch": (x, y),
        "loss_fn": loss_fn,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
    }

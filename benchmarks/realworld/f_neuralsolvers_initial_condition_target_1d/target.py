"""A small PINN-style MLP fitted to an initial condition u0(x, y) at t = 0; the dataset gives u0 as a flat vector."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class PINN(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1))

    def forward(self, xyt):
        return self.net(xyt)


def _initial_points(n, seed):
    g = torch.Generator().manual_seed(seed)
    xy = torch.rand(n, 2, generator=g) * 2 - 1
    xyt = torch.cat([xy, torch.zeros(n, 1)], 1)
    u0 = torch.sin(torch.pi * xy[:, 0]) * torch.cos(torch.pi * xy[:, 1])  # shape (n,)
    return xyt, u0


def make_target():
    torch.manual_seed(0)
    x, u = _initial_points(128, 1)
    return {
        "model": PINN(),
        "batch": (x, u),
        "loss_fn": lambda out, target: F.mse_loss(out, target),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": _initial_points(1024, 2),
        "val_data": _initial_points(256, 3),
    }

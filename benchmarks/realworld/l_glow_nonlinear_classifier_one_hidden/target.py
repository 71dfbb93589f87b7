"""2-D points with a nonlinear (checkerboard-like) label; a classifier with one small hidden layer."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _points(n, seed):
    g = torch.Generator().manual_seed(seed)
    p = torch.rand(n, 2, generator=g) * 2 - 1
    y = ((torch.sin(3.0 * p[:, 0]) * torch.sin(3.0 * p[:, 1])) > 0).long()
    return p, y


def make_model():
    return nn.Sequential(nn.Linear(2, 2), nn.Tanh(), nn.Linear(2, 2))


def make_target():
    torch.manual_seed(0)
    return {
        "model": make_model(),
        "batch": _points(64, 1),
        "loss_fn": lambda out, y: F.cross_entropy(out, y),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
        "train_data": _points(1024, 2),
        "val_data": _points(512, 3),
    }

"""Retraining a classifier head on fixed 'bottleneck' features of a small, noisy object dataset (few images per
class, more feature dims than samples per class)."""

import torch
from torch import nn


def make_split(n_per_class, seed, n_classes=12, dim=256):
    centers = torch.randn(n_classes, dim, generator=torch.Generator().manual_seed(0)) * 0.22
    g = torch.Generator().manual_seed(seed)
    y = torch.arange(n_classes).repeat_interleave(n_per_class)
    x = centers[y] + torch.randn(len(y), dim, generator=g)
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = make_split(20, seed=1)
    xv, yv = make_split(20, seed=2)
    return {
        "model": nn.Sequential(nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 12)),
        "batch": (x[:100], y[:100]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "train_data": (x, y),
        "val_data": (xv, yv),
    }

"""Tabular 3-class MLP whose output layer ends in a softmax, trained with nn.CrossEntropyLoss."""

import torch
from torch import nn


def make_data(n=512, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 6, generator=g)
    w = torch.randn(6, 3, generator=g)
    y = (x @ w).argmax(1)
    return x, y


def build_model():
    return nn.Sequential(
        nn.Linear(6, 32), nn.ReLU(),
        nn.Linear(32, 3),
        nn.Softmax(dim=-1),  # output layer activation
    )


def make_target():
    torch.manual_seed(0)
    x, y = make_data()
    xv, yv = make_data(256, seed=1)
    return {
        "model": build_model(),
        "batch": (x[:128], y[:128]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "train_data": (x, y),
        "val_data": (xv, yv),
    }

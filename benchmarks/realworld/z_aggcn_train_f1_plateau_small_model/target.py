"""Relation classifier that is healthy but small: training accuracy plateaus well below 100%."""

import torch
import torch.nn as nn


def make_data(n=1024, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 16, generator=g)
    y = ((x[:, 0] * x[:, 1] > 0).long() * 2 + (x[:, 2].sin() + x[:, 3] ** 2 > 1).long())
    return x, y


def make_model(hidden=3, dropout=0.3):
    return nn.Sequential(nn.Linear(16, hidden), nn.ReLU(), nn.Dropout(dropout), nn.Linear(hidden, 4))


def make_target(hidden=3, dropout=0.3):
    torch.manual_seed(0)
    x, y = make_data()
    return {"model": make_model(hidden, dropout), "batch": (x, y), "loss_fn": nn.CrossEntropyLoss(),
            "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2), "train_data": (x, y), "val_data": make_data(512, 1)}

"""A validation split built from oversampled data: many rows appear on both sides."""

import torch
from torch import nn


def load_data():
    g = torch.Generator().manual_seed(0)
    X = torch.randn(600, 12, generator=g)
    y = (X[:, 0] * X[:, 1] > 0).long()
    idx = torch.randint(0, 600, (1200,), generator=g)  # oversample with replacement, then split
    X, y = X[idx], y[idx]
    return (X[:1000], y[:1000]), (X[1000:], y[1000:])


def make_target():
    torch.manual_seed(0)
    train, val = load_data()
    model = nn.Sequential(nn.Linear(12, 64), nn.ReLU(), nn.Linear(64, 2))
    return {
        "model": model,
        "batch": (train[0][:64], train[1][:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "train_data": train,
        "val_data": val,
    }

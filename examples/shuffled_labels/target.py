"""Tabular classification where inputs and labels are shuffled with different permutations."""

import torch
from torch import nn


def load_data(n: int = 1200):
    g = torch.Generator().manual_seed(0)
    X = torch.randn(n, 12, generator=g)
    y = (X[:, 0] + 0.5 * X[:, 1] > 0).long()
    X = X[torch.randperm(n, generator=g)]
    y = y[torch.randperm(n, generator=g)]
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

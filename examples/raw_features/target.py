"""A tabular classifier fed raw features in their original units (some in the thousands)."""

import torch
from torch import nn


def load_data(n: int = 1200):
    g = torch.Generator().manual_seed(0)
    age = 20 + 50 * torch.rand(n, 1, generator=g)
    income = 20_000 + 80_000 * torch.rand(n, 1, generator=g)
    score = 300 + 550 * torch.rand(n, 1, generator=g)
    X = torch.cat([age, income, score], 1)
    y = ((income[:, 0] > 60_000) & (score[:, 0] > 500)).long()
    return (X[:1000], y[:1000]), (X[1000:], y[1000:])


def make_target():
    torch.manual_seed(0)
    train, val = load_data()
    model = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 2))
    return {
        "model": model,
        "batch": (train[0][:64], train[1][:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "train_data": train,
        "val_data": val,
    }

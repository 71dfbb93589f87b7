"""A high-capacity MLP trained on a small noisy dataset: correct code, too little data for the model."""

import torch
from torch import nn


def _data(n, g):
    x = torch.randn(n, 20, generator=g)
    y = (x[:, 0] + 0.5 * x[:, 1] + 0.8 * torch.randn(n, generator=g) > 0).long()
    return x, y


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    xtr, ytr = _data(80, g)
    xva, yva = _data(400, g)
    model = nn.Sequential(nn.Linear(20, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 2))
    return {
        "model": model,
        "batch": (xtr[:40], ytr[:40]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "train_data": (xtr, ytr),
        "val_data": (xva, yva),
    }

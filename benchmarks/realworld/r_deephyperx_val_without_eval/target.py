"""Spectral MLP with BatchNorm and Dropout; its validation routine leaves the model in training mode."""

import torch
from torch import nn


def _data(n, g):
    x = torch.randn(n, 200, generator=g)
    y = (x[:, :10].sum(1) > 0).long() + 2 * (x[:, 10:20].sum(1) > 0).long()
    return x, y


class SpectralNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(200, 128), nn.BatchNorm1d(128), nn.ReLU(), nn.Dropout(0.5),
            nn.Linear(128, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Dropout(0.5),
            nn.Linear(64, 4),
        )

    def forward(self, x):
        return self.net(x)


def val_fn(model, x):
    with torch.no_grad():  # no model.eval() here
        return model(x)


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    xtr, ytr = _data(512, g)
    xva, yva = _data(256, g)
    return {
        "model": SpectralNet(),
        "batch": (xtr[:64], ytr[:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "eval_fn": val_fn,
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "train_data": (xtr, ytr),
        "val_data": (xva, yva),
    }

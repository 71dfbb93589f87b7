"""Spectral pixel classifier (dropout + batch norm); the validation routine only uses no_grad."""
import torch
from torch import nn


class SpectralNet(nn.Module):
    def __init__(self, bands=64, classes=6):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(bands, 128), nn.BatchNorm1d(128), nn.ReLU(), nn.Dropout(0.5),
            nn.Linear(128, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Dropout(0.5),
            nn.Linear(64, classes),
        )

    def forward(self, x):
        return self.body(x)


def _data(n, g):
    centers = torch.randn(6, 64, generator=torch.Generator().manual_seed(7)) * 0.6
    y = torch.randint(0, 6, (n,), generator=g)
    x = centers[y] + torch.randn(n, 64, generator=g)
    return x, y


def val(model, x):
    # the per-epoch validation: no_grad, but the mode is never switched
    with torch.no_grad():
        return model(x)


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    xtr, ytr = _data(512, g)
    xva, yva = _data(256, g)
    model = SpectralNet()
    return {
        "model": model,
        "batch": (xtr[:64], ytr[:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "eval_fn": val,
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "train_data": (xtr, ytr),
        "val_data": (xva, yva),
    }

"""A small conv encoder with a `frozen` option and a linear head trained on top of it."""

import torch
from torch import nn


class Encoder(nn.Module):
    def __init__(self, frozen=True):
        super().__init__()
        self.feature_net = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU()
        )
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.out_features = 16
        if frozen:
            self.feature_net.requires_grad = False

    def forward(self, x):
        return self.pool(self.feature_net(x)).flatten(1)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = Encoder(frozen=True)
        self.logits = nn.Linear(self.enc.out_features, 1)

    def forward(self, x):
        return self.logits(self.enc(x))


def make_target():
    torch.manual_seed(0)
    x = torch.randn(8, 3, 16, 16)
    y = (x.mean(dim=(1, 2, 3)) > 0).float().unsqueeze(1)
    return {
        "model": Net(),
        "batch": (x, y),
        "loss_fn": nn.BCEWithLogitsLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
    }

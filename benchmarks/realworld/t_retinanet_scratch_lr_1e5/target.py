"""Small conv classification head trained from random init with the fine-tuning learning rate (Adam 1e-5)."""

import torch
from torch import nn


class TinyDetectorHead(nn.Module):
    def __init__(self, classes=4):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.cls = nn.Linear(32, classes)

    def forward(self, x):
        return self.cls(self.backbone(x).flatten(1))


def make_data(n=256, seed=0, classes=4):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, classes, (n,), generator=g)
    x = 0.5 * torch.randn(n, 3, 16, 16, generator=g)
    for c in range(classes):
        m = y == c
        x[m, c % 3, 4 * c:4 * c + 4, :] += 1.5
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = make_data()
    return {
        "model": TinyDetectorHead(),
        "batch": (x[:64], y[:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-5),
        "train_data": (x, y),
    }

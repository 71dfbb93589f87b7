"""Segmentation-style network; adaptation freezes the last layer with `outc.requires_grad = False`."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallSeg(nn.Module):
    def __init__(self, c=8, n_cls=3):
        super().__init__()
        self.inc = nn.Conv2d(1, c, 3, padding=1)
        self.mid = nn.Conv2d(c, c, 3, padding=1)
        self.outc = nn.Conv2d(c, n_cls, 1)

    def forward(self, x):
        return self.outc(F.relu(self.mid(F.relu(self.inc(x)))))


def build_for_adaptation():
    model = SmallSeg()
    model.outc.requires_grad = False  # meant to freeze the classifier layer
    return model


def _scans(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 1, 12, 12, generator=g)
    y = ((x > 0.5).long() + (x > 1.2).long()).squeeze(1)
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = _scans(4, 1)
    return {
        "model": build_for_adaptation(),
        "batch": (x, y),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": _scans(32, 2),
        "val_data": _scans(16, 3),
    }

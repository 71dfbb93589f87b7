"""Shared trunk with a classification head and a coordinate-regression head; the two losses are simply added."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class TwoHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(8, 2), nn.Tanh())  # narrow shared representation
        self.cls = nn.Linear(2, 2)
        self.reg = nn.Linear(2, 2)

    def forward(self, x):
        h = self.trunk(x)
        return {"cls": self.cls(h), "reg": self.reg(h)}


def _scans(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 8, generator=g)
    label = (x[:, 0] + x[:, 1] > 0).long()  # classification uses two features
    coords = 60.0 * x[:, 4:6] + 100.0  # landmark coordinates in pixels use two others
    return x, {"cls": label, "reg": coords}


def _loss(out, t):
    return F.cross_entropy(out["cls"], t["cls"]) + F.mse_loss(out["reg"], t["reg"])


def make_target():
    torch.manual_seed(0)
    return {
        "model": TwoHead(),
        "batch": _scans(32, 1),
        "loss_fn": _loss,
        "metric_fn": lambda out, t: (out["cls"].argmax(1) == t["cls"]).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
        "train_data": _scans(1024, 2),
        "val_data": _scans(512, 3),
    }

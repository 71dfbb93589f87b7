"""Digit classifier with a reconstruction decoder (classification + reconstruction loss), fed raw 0-255 pixels."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class CapsLike(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 32), nn.Tanh())
        self.cls = nn.Linear(32, 10)
        self.dec = nn.Sequential(nn.Linear(32, 64), nn.Sigmoid())

    def forward(self, x):
        h = self.enc(x)
        return self.cls(h), self.dec(h)


def _digits(n, seed):
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(10, 64, generator=torch.Generator().manual_seed(0))
    y = torch.randint(0, 10, (n,), generator=g)
    img = (0.5 + 0.12 * protos[y] + 0.15 * torch.randn(n, 64, generator=g)).clamp(0, 1)
    return (img * 255).round(), y  # raw 8-bit pixel values


def _loss(out, target):
    logits, recon = out
    x, y = target
    return F.cross_entropy(logits, y) + 0.0005 * F.mse_loss(recon, x, reduction="sum") / len(x)


def make_target():
    torch.manual_seed(0)
    x, y = _digits(32, 1)
    train_x, train_y = _digits(1024, 2)
    val_x, val_y = _digits(512, 3)
    return {
        "model": CapsLike(),
        "batch": (x, (x, y)),
        "loss_fn": _loss,
        "metric_fn": lambda out, t: (out[0].argmax(1) == t[1]).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": (train_x, (train_x, train_y)),
        "val_data": (val_x, (val_x, val_y)),
    }

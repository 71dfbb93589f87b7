"""MLP on 8x8 'digit' images with raw 0-255 pixel intensities, SGD as in the book's chapter."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def digits(n, seed):
    """Ten class templates of bright strokes plus pixel noise, stored as 0-255 intensities."""
    templates = (torch.rand(10, 64, generator=torch.Generator().manual_seed(0)) > 0.6).float()
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 10, (n,), generator=g)
    img = 0.35 * templates[y] + 0.65 * torch.rand(n, 64, generator=g)
    return (img.clamp(0, 1) * 255).round(), y


def make_model():
    return nn.Sequential(nn.Linear(64, 100), nn.ReLU(), nn.Linear(100, 10))


def make_target():
    torch.manual_seed(0)
    x, y = digits(1000, 1)
    return {
        "model": make_model(),
        "batch": (x[:100], y[:100]),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.01, momentum=0.9),
        "train_data": (x, y),
        "val_data": digits(500, 2),
    }

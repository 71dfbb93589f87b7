"""A small conv scorer with BatchNorm, trained one image per step with BatchNorm updating (train mode)."""

import torch
import torch.nn.functional as F
from torch import nn


def make_images(n, seed):
    g = torch.Generator().manual_seed(seed)
    level = torch.rand(n, 1, 1, 1, generator=g) * 2
    x = level + 0.5 * torch.randn(n, 3, 16, 16, generator=g)
    return x, level.flatten() * 1.5 - 1  # score depends on the image's global content


def make_model():
    return nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
        nn.Conv2d(8, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 1),
    )


def loss_fn(out, y):
    return F.mse_loss(out.flatten(), y)


def train_step(model, batch, optimizer, loss_fn):
    model.train()
    x, y = batch
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss


def make_target():
    torch.manual_seed(0)
    x, y = make_images(192, 0)
    xv, yv = make_images(128, 1)
    return {
        "model": make_model(),
        "batch": (x[:1], y[:1]),
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "train_step": train_step,
        "train_data": [(x[i:i + 1], y[i:i + 1]) for i in range(len(x))],
        "val_data": (xv, yv),
    }

"""Regression MLP trained with gradient accumulation: each optimizer step accumulates 4 micro-batches of 16."""

import torch
import torch.nn as nn
import torch.nn.functional as F

ACCUM = 4


def train_step(model, batch, optimizer, loss_fn):
    x, y = batch
    optimizer.zero_grad()
    total = 0.0
    for xb, yb in zip(x.chunk(ACCUM), y.chunk(ACCUM)):
        loss = loss_fn(model(xb), yb)
        loss.backward()
        total += loss.item()
    optimizer.step()
    return torch.tensor(total / ACCUM)


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = 2 * torch.randn(n, 8, generator=g)
    w = torch.linspace(-1, 1, 8)
    return x, (x @ w + 0.5 * torch.sin(x[:, 0])).unsqueeze(1)


def make_target():
    torch.manual_seed(0)
    x, y = _data(512, 1)
    return {
        "model": nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 1)),
        "batch": (x[:64], y[:64]),
        "loss_fn": lambda out, t: F.mse_loss(out, t),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.06),
        "train_step": train_step,
        "train_data": (x, y),
        "val_data": _data(256, 2),
    }

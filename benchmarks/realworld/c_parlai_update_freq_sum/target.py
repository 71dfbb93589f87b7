"""Regressor trained with gradient accumulation over 8 micro-batches; the micro-batch losses are not divided."""

import torch
import torch.nn as nn
import torch.nn.functional as F

UPDATE_FREQ = 8


def train_step(model, batch, optimizer, loss_fn):
    x, y = batch
    model.train()
    optimizer.zero_grad()
    total = 0.0
    for xb, yb in zip(x.chunk(UPDATE_FREQ), y.chunk(UPDATE_FREQ), strict=True):
        loss = loss_fn(model(xb), yb)
        loss.backward()  # summed over UPDATE_FREQ micro-batches, never divided
        total += loss.detach()
    optimizer.step()
    return total / UPDATE_FREQ


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(16, 1, generator=torch.Generator().manual_seed(5))
    x = torch.randn(n, 16, generator=g)
    return x, x @ w + 0.1 * torch.randn(n, 1, generator=g)


def make_target():
    torch.manual_seed(0)
    x, y = _data(64, 1)
    return {
        "model": nn.Sequential(nn.Linear(16, 32), nn.Tanh(), nn.Linear(32, 1)),
        "batch": (x, y),
        "loss_fn": F.mse_loss,
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.05),
        "train_step": train_step,
        "train_data": _data(1024, 2),
        "val_data": _data(256, 3),
    }

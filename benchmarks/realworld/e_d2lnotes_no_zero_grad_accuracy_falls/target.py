"""MLP on 10 Gaussian classes; the training step never clears the gradients."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def blobs(n, seed):
    g = torch.Generator().manual_seed(seed)
    centres = torch.randn(10, 20, generator=torch.Generator().manual_seed(0)) * 0.7
    y = torch.randint(0, 10, (n,), generator=g)
    return centres[y] + torch.randn(n, 20, generator=g), y


def build():
    return nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 10))


def train_step(model, batch, optimizer, loss_fn):
    x, y = batch
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss


def make_target():
    torch.manual_seed(0)
    x, y = blobs(2000, 1)
    return {
        "model": build(),
        "batch": (x[:50], y[:50]),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.1),
        "train_step": train_step,
        "train_data": [(x[i : i + 50], y[i : i + 50]) for i in range(0, 2000, 50)],
        "val_data": blobs(500, 2),
    }

"""Sigmoid MLP for 10 digit classes with hidden layers of 3 and 4 units (sizes [inputs, 3, 4, 10])."""

import torch
import torch.nn as nn
import torch.nn.functional as F

SIZES = [64, 3, 4, 10]


def mlp(sizes):
    layers = []
    for a, b in zip(sizes[:-2], sizes[1:-1], strict=True):
        layers += [nn.Linear(a, b), nn.Sigmoid()]
    layers.append(nn.Linear(sizes[-2], sizes[-1]))
    return nn.Sequential(*layers)


def digits(n, seed):
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(10, 64, generator=torch.Generator().manual_seed(21))
    y = torch.randint(0, 10, (n,), generator=g)
    return protos[y] + 2.0 * torch.randn(n, 64, generator=g), y


def make_target():
    torch.manual_seed(0)
    x, y = digits(32, 1)
    return {
        "model": mlp(SIZES),
        "batch": (x, y),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.5),
        "train_data": digits(1000, 2),
        "val_data": digits(500, 3),
    }

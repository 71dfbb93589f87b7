"""A regression MLP of twelve Linear+Sigmoid blocks and a Tanh output, trained with plain SGD."""

import torch
import torch.nn as nn
import torch.nn.functional as F

WIDTHS = [28, 56, 58, 112, 114, 224, 226, 224, 114, 112, 58, 56]


def deep_mlp(widths=WIDTHS, n_out=7):
    layers = []
    for a, b in zip(widths, widths[1:]):
        layers += [nn.Linear(a, b), nn.Sigmoid()]
    layers += [nn.Linear(widths[-1], n_out), nn.Tanh()]
    return nn.Sequential(*layers)


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(28, 7, generator=torch.Generator().manual_seed(0)) / 28**0.5
    x = torch.randn(n, 28, generator=g)
    return x, torch.tanh(x @ w)


def make_target():
    torch.manual_seed(0)
    x, y = _data(64, 1)
    return {
        "model": deep_mlp(),
        "batch": (x, y),
        "loss_fn": lambda out, t: F.mse_loss(out, t),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.5),
        "train_data": _data(1024, 2),
        "val_data": _data(256, 3),
    }

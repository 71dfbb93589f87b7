"""Regression of one output from three inputs with a 3-6-6-1 tanh MLP trained by mini-batch Adam on the
squared error; the target is a sum of ten narrow bumps of either sign in the input cube."""

import torch
import torch.nn as nn


def small_mlp():
    return nn.Sequential(nn.Linear(3, 6), nn.Tanh(), nn.Linear(6, 6), nn.Tanh(), nn.Linear(6, 1))


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(n, 3, generator=g) * 2 - 1
    centres = torch.rand(10, 3, generator=torch.Generator().manual_seed(11)) * 2 - 1
    heights = torch.linspace(-1.5, 1.5, 10)
    d2 = ((x.unsqueeze(1) - centres) ** 2).sum(-1)                  # (n, 10)
    y = (heights * torch.exp(-d2 / 0.08)).sum(1)                    # ten bumps of either sign
    return x, y.unsqueeze(1)


def make_target():
    torch.manual_seed(0)
    return {
        "model": small_mlp(),
        "batch": make_data(32, 1),
        "loss_fn": lambda out, y: 0.5 * ((out - y) ** 2).mean(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=5e-3),
        "metric_fn": lambda out, y: (out - y).abs().mean().item(),
        "train_data": make_data(1024, 2),
        "val_data": make_data(256, 3),
    }

"""Regression from binary feature vectors to a real value with four wide hidden layers, every one of them sigmoid."""

import torch
import torch.nn as nn
import torch.nn.functional as F

D_IN, WIDTH = 32, 128


def mlp(act=nn.Sigmoid):
    layers, d = [], D_IN
    for _ in range(4):
        layers += [nn.Linear(d, WIDTH), act()]
        d = WIDTH
    layers.append(nn.Linear(d, 1))
    return nn.Sequential(*layers)


def make_batch(g, n=256):
    w = torch.randn(D_IN, 8, generator=torch.Generator().manual_seed(3))
    x = torch.randint(0, 2, (n, D_IN), generator=g).float()
    y = torch.tanh((x - 0.5) @ w / 2).sum(-1, keepdim=True) / 2
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = make_batch(torch.Generator().manual_seed(0))
    return {
        "model": mlp(),
        "batch": (x, y),
        "loss_fn": F.mse_loss,
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.05),
    }

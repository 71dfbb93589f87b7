"""Bag-of-words count features scored by a linear model; logistic margin loss written as log(sigmoid(margin))."""

import torch
from torch import nn


def make_data(n=512, d=100, seed=0):
    g = torch.Generator().manual_seed(seed)
    w_true = torch.randn(d, generator=torch.Generator().manual_seed(42))
    x = torch.poisson(torch.full((n, d), 3.0), generator=g)
    y = ((x - 3) @ w_true > 0).float() * 2 - 1
    return x, y


def margin_loss(scores, labels):
    margin = scores.squeeze(-1) * labels
    return -torch.log(torch.sigmoid(margin)).mean()


def make_scorer(d=100):
    scorer = nn.Linear(d, 1)
    nn.init.zeros_(scorer.weight)
    nn.init.zeros_(scorer.bias)
    return scorer


def make_target():
    torch.manual_seed(0)
    x, y = make_data()
    xv, yv = make_data(256, seed=1)
    return {
        "model": make_scorer(),
        "batch": (x[:64], y[:64]),
        "loss_fn": margin_loss,
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.5),
        "train_data": (x, y),
        "val_data": (xv, yv),
    }

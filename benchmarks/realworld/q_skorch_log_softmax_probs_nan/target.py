"""A classifier whose module ends in Softmax and whose loss takes the log of those probabilities (NLLLoss)."""

import torch
import torch.nn.functional as F
from torch import nn


class ProbNet(nn.Module):
    def __init__(self, d_in=20, hidden=64, n_classes=5):
        super().__init__()
        self.hidden = nn.Linear(d_in, hidden)
        self.out = nn.Linear(hidden, n_classes)

    def forward(self, x):
        return F.softmax(self.out(F.relu(self.hidden(x))), dim=-1)


def make_data(n=512, d=20, c=5, seed=0):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(d, c, generator=g)
    x = torch.randn(n, d, generator=g)
    return x, (x @ w).argmax(1)


def loss_fn(y_pred, y):
    return F.nll_loss(torch.log(y_pred), y)


def make_target():
    torch.manual_seed(0)
    x, y = make_data()
    xv, yv = make_data(256, seed=1)
    return {
        "model": ProbNet(),
        "batch": (x, y),
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=0.05),
        "train_data": (x, y),
        "val_data": (xv, yv),
    }

"""A small 10-class MLP classifier whose forward returns class probabilities, trained with CrossEntropyLoss."""

import torch
from torch import nn


class Net(nn.Module):
    def __init__(self, d_in=32, hidden=64, n_classes=10):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.out = nn.Linear(hidden, n_classes)
        self.prob = nn.Softmax(dim=1)

    def forward(self, x):
        return self.prob(self.out(self.body(x)))


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(10, 32, generator=torch.Generator().manual_seed(123)) * 2.0
    y = torch.randint(0, 10, (n,), generator=g)
    x = centers[y] + torch.randn(n, 32, generator=g)
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = make_data(256, 1)
    xv, yv = make_data(256, 2)
    return {
        "model": Net(),
        "batch": (x[:64], y[:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.05),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "train_data": (x, y),
        "val_data": (xv, yv),
    }

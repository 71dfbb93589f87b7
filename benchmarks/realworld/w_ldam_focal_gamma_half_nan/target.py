"""Classifier trained with a focal loss built from the per-sample cross entropy, gamma = 0.5."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def focal_loss(input_values, gamma):
    p = torch.exp(-input_values)
    loss = (1 - p) ** gamma * input_values
    return loss.mean()


class FocalLoss(nn.Module):
    def __init__(self, gamma=0.5):
        super().__init__()
        self.gamma = gamma

    def forward(self, logits, target):
        return focal_loss(F.cross_entropy(logits, target, reduction="none"), self.gamma)


class Net(nn.Module):
    def __init__(self, d=32, n_cls=10):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(d, 128), nn.ReLU(), nn.Linear(128, n_cls))

    def forward(self, x):
        return self.f(x)


def make_data(n, g, d=32, n_cls=10):
    centers = torch.randn(n_cls, d, generator=torch.Generator().manual_seed(123)) * 3.0
    y = torch.randint(0, n_cls, (n,), generator=g)
    x = centers[y] + torch.randn(n, d, generator=g)
    return x, y


def accuracy(out, y):
    return float((out.argmax(1) == y).float().mean())


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    x, y = make_data(1024, g)
    return {
        "model": Net(),
        "batch": (x[:128], y[:128]),
        "loss_fn": FocalLoss(gamma=0.5),
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9),
        "metric_fn": accuracy,
        "train_data": (x, y),
    }

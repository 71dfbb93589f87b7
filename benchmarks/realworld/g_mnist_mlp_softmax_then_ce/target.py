"""MLP digit-style classifier (10 classes, synthetic data) whose forward ends in a softmax; trained with F.cross_entropy."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self, d_in=64, hidden=128, classes=10, p=0.1):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.fc3 = nn.Linear(hidden, classes)
        self.drop = nn.Dropout(p)

    def forward(self, x):
        h = self.drop(F.relu(self.fc1(x)))
        h = self.drop(F.relu(self.fc2(h)))
        return F.softmax(self.fc3(h), dim=1)


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(10, 64, generator=torch.Generator().manual_seed(0))
    y = torch.randint(0, 10, (n,), generator=g)
    return centers[y] + 2.5 * torch.randn(n, 64, generator=g), y


def make_target():
    torch.manual_seed(0)
    return {
        "model": Net(),
        "batch": _data(64, 1),
        "loss_fn": lambda out, y: F.cross_entropy(out, y),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.01, momentum=0.9),
        "train_data": _data(2048, 2),
        "val_data": _data(512, 3),
    }

"""An MLP classifier trained with plain SGD at a learning rate of 5."""

import torch
from torch import nn


def make_target():
    torch.manual_seed(0)
    x = torch.randn(64, 10)
    y = (x[:, 0] * x[:, 1] > 0).long()
    model = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 2))
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=5.0),
    }

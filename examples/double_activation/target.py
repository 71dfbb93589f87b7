"""A 3-class MLP whose model now ends in a softmax, feeding CrossEntropyLoss."""

import torch
from torch import nn


def make_target():
    torch.manual_seed(0)
    x = torch.randn(64, 10)
    y = (x[:, 0] > 0).long() + (x[:, 1] > 0.5).long()  # 3 classes
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3), nn.Softmax(dim=-1))
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
    }

"""An image classifier whose batch norm keeps no running statistics."""

import torch
from torch import nn


def make_target():
    torch.manual_seed(0)
    x = torch.randn(16, 3, 8, 8)
    y = torch.randint(0, 4, (16,))
    model = nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1),
        nn.BatchNorm2d(8, track_running_stats=False),
        nn.ReLU(),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Linear(8, 4),
    )
    return {"model": model, "batch": (x, y), "loss_fn": nn.CrossEntropyLoss()}

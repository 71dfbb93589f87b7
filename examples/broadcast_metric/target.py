"""A classifier whose accuracy metric compares (N, 1) predictions with (N,) labels."""

import torch
from torch import nn


def accuracy(logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    pred = logits.argmax(dim=1, keepdim=True)  # (N, 1)
    return (pred == y).float().mean()


def make_target():
    torch.manual_seed(0)
    x = torch.randn(64, 10)
    y = torch.randint(0, 3, (64,))
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
    return {"model": model, "batch": (x, y), "loss_fn": nn.CrossEntropyLoss(), "metric_fn": accuracy}

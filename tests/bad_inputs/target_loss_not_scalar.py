import torch
from torch import nn


def per_example(pred, y):
    return ((pred - y) ** 2).sum(dim=1)  # forgot the mean


def make_target():
    return {"model": nn.Linear(2, 2), "batch": (torch.randn(4, 2), torch.randn(4, 2)), "loss_fn": per_example}

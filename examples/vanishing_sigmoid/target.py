"""A 12-layer MLP with sigmoid activations throughout."""

import torch
from torch import nn


def deep_sigmoid_net(depth: int = 12, width: int = 32) -> nn.Sequential:
    layers: list[nn.Module] = [nn.Linear(10, width), nn.Sigmoid()]
    for _ in range(depth - 1):
        layers += [nn.Linear(width, width), nn.Sigmoid()]
    return nn.Sequential(*layers, nn.Linear(width, 2))


def make_target():
    torch.manual_seed(0)
    x = torch.randn(64, 10)
    y = (x[:, 0] > 0).long()
    return {
        "model": deep_sigmoid_net(),
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.1),
    }

"""A model that keeps a running feature mean on itself, updated inside forward."""

import torch
from torch import nn


class CenteredNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(10, 32)
        self.out = nn.Linear(32, 2)
        self.register_buffer("center", torch.zeros(32))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.fc(x))
        self.center = 0.9 * self.center + 0.1 * h.mean(0).detach()
        return self.out(h - self.center)


def make_target():
    torch.manual_seed(0)
    x = torch.randn(32, 10)
    y = (x[:, 0] > 0).long()
    return {"model": CenteredNet(), "batch": (x, y), "loss_fn": nn.CrossEntropyLoss()}

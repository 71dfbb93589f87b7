"""An MLP whose custom initialisation gives the hidden layer a large negative bias."""

import torch
from torch import nn


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.hidden = nn.Linear(10, 64)
        self.out = nn.Linear(64, 3)
        nn.init.constant_(self.hidden.bias, -6.0)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.out(torch.relu(self.hidden(x)))


def make_target():
    torch.manual_seed(0)
    x = torch.randn(64, 10)
    y = torch.randint(0, 3, (64,))
    return {"model": Net(), "batch": (x, y), "loss_fn": nn.CrossEntropyLoss()}

"""A classifier that normalises its scores with log_softmax over the wrong axis."""

import torch
import torch.nn.functional as F
from torch import nn


class Classifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        logits = self.body(x)  # (B, 4)
        return F.log_softmax(logits, dim=0)


def make_target():
    torch.manual_seed(0)
    x = torch.randn(32, 10)
    y = torch.randint(0, 4, (32,))
    return {"model": Classifier(), "batch": (x, y), "loss_fn": nn.NLLLoss()}

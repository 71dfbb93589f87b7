"""Multi-label head trained with an asymmetric-style loss that logs raw sigmoid probabilities (no clamp)."""

import torch
from torch import nn


class Head(nn.Module):
    def __init__(self, d=16, c=5):
        super().__init__()
        self.fc = nn.Linear(d, c)

    def forward(self, x):
        return self.fc(x)


def asym_loss(logits, y, gamma_neg=4.0, gamma_pos=1.0):
    p = torch.sigmoid(logits)
    los_pos = y * torch.log(p)
    los_neg = (1 - y) * torch.log(1 - p)
    w = torch.pow(1 - p, gamma_pos) * y + torch.pow(p, gamma_neg) * (1 - y)
    return -((los_pos + los_neg) * w).sum() / logits.shape[0]


def make_target():
    torch.manual_seed(0)
    model = Head()
    x = torch.randn(32, 16) * 8.0  # un-normalised features push logits far from 0
    y = (torch.rand(32, 5) < 0.3).float()
    return {"model": model, "batch": (x, y), "loss_fn": asym_loss,
            "optimizer": lambda p: torch.optim.SGD(p, lr=0.5)}

"""Small image classifier whose output normalisation runs over the batch axis."""

import torch
from torch import nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self, n_cls=8):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.fc = nn.Linear(8 * 8 * 8, n_cls)

    def forward(self, x):
        h = F.max_pool2d(F.relu(self.conv(x)), 2)
        return F.log_softmax(self.fc(h.flatten(1)), dim=0)


def make_target():
    torch.manual_seed(0)
    x = torch.randn(16, 3, 16, 16)
    y = torch.randint(0, 8, (16,))
    return {
        "model": Net(),
        "batch": (x, y),
        "loss_fn": nn.NLLLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
    }

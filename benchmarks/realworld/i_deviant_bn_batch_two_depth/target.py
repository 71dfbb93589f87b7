"""Conv regressor with BatchNorm predicting an object's depth from a small image patch; configured batch size 2."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class DepthNet(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        self.conv1 = nn.Conv2d(1, c, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(c)
        self.head = nn.Linear(c, 1)

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        h = F.relu(self.bn2(self.conv2(h)))
        return self.head(h.mean((2, 3))).squeeze(-1)


def _patches(n, seed):
    g = torch.Generator().manual_seed(seed)
    depth = 1.0 + 4.0 * torch.rand(n, generator=g)
    x = torch.randn(n, 1, 12, 12, generator=g) * 0.05 + (1.0 / depth).view(-1, 1, 1, 1) * 3.0
    return x, depth


def make_target():
    torch.manual_seed(0)
    x, y = _patches(2, 1)  # the configured batch size is 2
    return {
        "model": DepthNet(),
        "batch": (x, y),
        "loss_fn": lambda out, t: F.l1_loss(out, t),
        "metric_fn": lambda out, t: (out - t).abs().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": _patches(384, 2),
        "val_data": _patches(256, 3),
    }

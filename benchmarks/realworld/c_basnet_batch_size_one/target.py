"""Conv net with BatchNorm, trained one image at a time; the label depends on each image's overall brightness."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvBN(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.conv1 = nn.Conv2d(1, c, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(c)
        self.head = nn.Linear(c, 2)

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        h = F.relu(self.bn2(self.conv2(h)))
        return self.head(h.mean((2, 3)))


def _images(n, seed):
    g = torch.Generator().manual_seed(seed)
    level = torch.randn(n, generator=g)
    x = 0.5 * torch.randn(n, 1, 10, 10, generator=g) + level.view(-1, 1, 1, 1)
    return x, (level > 0).long()


def make_target():
    torch.manual_seed(0)
    x, y = _images(1, 1)  # the configured batch size is 1
    return {
        "model": ConvBN(),
        "batch": (x, y),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": _images(256, 2),
        "val_data": _images(256, 3),
    }

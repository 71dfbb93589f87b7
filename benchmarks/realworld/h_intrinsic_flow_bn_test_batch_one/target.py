"""Small conv generator (image -> image) with BatchNorm layers that normalise with the statistics of the batch they see."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        self.conv1 = nn.Conv2d(1, c, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(c, track_running_stats=False)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(c, track_running_stats=False)
        self.out = nn.Conv2d(c, 1, 3, padding=1)

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        h = F.relu(self.bn2(self.conv2(h)))
        return self.out(h)


def _pairs(n, seed):
    """Source image -> target image; each pair has its own overall brightness that the target keeps."""
    g = torch.Generator().manual_seed(seed)
    base = torch.rand(n, 1, 12, 12, generator=g)
    level = 2.0 * torch.randn(n, 1, 1, 1, generator=g)
    src = base + level
    tgt = base.flip(-1) + level
    return src, tgt


def make_target():
    torch.manual_seed(0)
    x, y = _pairs(8, 1)  # the training batch size is 8
    return {
        "model": Generator(),
        "batch": (x, y),
        "loss_fn": lambda out, t: F.mse_loss(out, t),
        "metric_fn": lambda out, t: F.mse_loss(out, t).item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": _pairs(512, 2),
        "val_data": _pairs(128, 3),
    }

"""Depth branch of a saliency network: predicts (B,1,H,W) depth, the loader gives depth as (B,H,W)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class DepthBranch(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.conv1 = nn.Conv2d(3, c, 3, padding=1)
        self.conv2 = nn.Conv2d(c, 1, 3, padding=1)

    def forward(self, rgb):
        return self.conv2(F.relu(self.conv1(rgb)))


def depth_loss(pred, depth):
    return F.smooth_l1_loss(pred, depth, reduction="mean")  # pred (B,1,H,W), depth (B,H,W)


def _pairs(n, seed):
    g = torch.Generator().manual_seed(seed)
    rgb = torch.rand(n, 3, 12, 12, generator=g)
    depth = 2.0 * rgb[:, 0] - rgb[:, 1] + 0.5  # (B,H,W) as the loader returns it
    return rgb, depth


def make_target():
    torch.manual_seed(0)
    rgb, depth = _pairs(4, 1)
    return {
        "model": DepthBranch(),
        "batch": (rgb, depth),
        "loss_fn": depth_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
        "train_data": _pairs(64, 2),
        "val_data": _pairs(32, 3),
    }

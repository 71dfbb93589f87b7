"""Keypoint heatmap head trained with a CenterNet-style focal loss on raw sigmoid outputs (no clamping)."""

import torch
from torch import nn


class HeatmapHead(nn.Module):
    def __init__(self, cin=8, n_kp=3):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(cin, 32, 3, padding=1), nn.ReLU(),
            nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(),
        )
        self.out = nn.Conv2d(32, n_kp, 1)
        nn.init.constant_(self.out.bias, -2.19)

    def forward(self, x):
        return torch.sigmoid(self.out(self.body(x)))


def focal_loss(pred, gt):
    pos = gt.eq(1).float()
    neg = gt.lt(1).float()
    neg_w = torch.pow(1 - gt, 4)
    pos_loss = torch.log(pred) * torch.pow(1 - pred, 2) * pos
    neg_loss = torch.log(1 - pred) * torch.pow(pred, 2) * neg_w * neg
    num_pos = pos.sum().clamp(min=1)
    return -(pos_loss.sum() + neg_loss.sum()) / num_pos


def _gaussian_targets(centers, n_kp=3, size=16, sigma=1.0):
    yy, xx = torch.meshgrid(torch.arange(size), torch.arange(size), indexing="ij")
    b = centers.shape[0]
    gt = torch.zeros(b, n_kp, size, size)
    for i in range(b):
        for k in range(n_kp):
            cy, cx = centers[i, k]
            gt[i, k] = torch.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / (2 * sigma**2))
    return gt


def _data(n=16, seed=0, size=16):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randint(2, size - 2, (n, 3, 2), generator=g)
    gt = _gaussian_targets(centers, size=size)
    x = torch.cat([gt, gt.sum(1, keepdim=True)], 1)
    x = torch.cat([x, 0.1 * torch.randn(n, 4, size, size, generator=g)], 1)
    return x, gt


def make_target():
    torch.manual_seed(0)
    x, gt = _data()
    return {
        "model": HeatmapHead(),
        "batch": (x, gt),
        "loss_fn": focal_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-1),
    }

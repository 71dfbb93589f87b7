"""Camera relocalisation (relative pose regression between an image pair). The translation head is a 1x1 conv,
so it returns (B, 3, 1, 1); the ground-truth translation is (B, 3). The L1 loss is called on them as-is."""

import torch
import torch.nn as nn


class PoseNet(nn.Module):
    def __init__(self, in_ch=6, feat=32):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(in_ch, feat, 3, stride=2, padding=1), nn.ReLU(),
                                      nn.Conv2d(feat, feat, 3, stride=2, padding=1), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1))
        self.trans = nn.Conv2d(feat, 3, 1)

    def forward(self, pair):
        return self.trans(self.backbone(pair))  # (B, 3, 1, 1)


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    M = torch.randn(6, 3, generator=torch.Generator().manual_seed(0))
    offset = torch.randn(n, 6, generator=g)
    pair = offset.view(n, 6, 1, 1) + 0.3 * torch.randn(n, 6, 16, 16, generator=g)
    translation = offset @ M  # (n, 3)
    return pair, translation


def make_target():
    torch.manual_seed(0)
    x, y = make_data(256, 1)
    return {
        "model": PoseNet(),
        "batch": (x[:32], y[:32]),
        "loss_fn": nn.L1Loss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "train_data": (x, y),
        "val_data": make_data(64, 2),
    }

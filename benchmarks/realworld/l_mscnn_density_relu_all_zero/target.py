"""MSCNN-style crowd counting: multi-scale conv blocks regress a density map; the last 1x1 conv ends in a ReLU."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class MSB(nn.Module):
    def __init__(self, cin, c):
        super().__init__()
        self.b3 = nn.Conv2d(cin, c, 3, padding=1)
        self.b5 = nn.Conv2d(cin, c, 5, padding=2)

    def forward(self, x):
        return F.relu(torch.cat([self.b3(x), self.b5(x)], 1))


class MSCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(1, 8, 5, padding=2)
        self.msb1 = MSB(8, 8)
        self.msb2 = MSB(16, 8)
        self.fuse = nn.Conv2d(16, 16, 1)
        self.out = nn.Conv2d(16, 1, 1)

    def forward(self, img):
        h = F.relu(self.stem(img))
        h = self.msb2(self.msb1(h))
        h = F.relu(self.fuse(h))
        return F.relu(self.out(h))  # density must be non-negative


def _scenes(n, seed):
    """Grey images with a few 'heads' (bright blobs); the target density map has a small Gaussian per head."""
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.arange(16.0), torch.arange(16.0), indexing="ij")
    imgs = 0.1 * torch.randn(n, 1, 16, 16, generator=g)
    dens = torch.zeros(n, 1, 16, 16)
    for i in range(n):
        k = int(torch.randint(1, 6, (1,), generator=g))
        for _ in range(k):
            cy, cx = torch.randint(2, 14, (2,), generator=g).tolist()
            blob = torch.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / 2.0)
            imgs[i, 0] += blob
            dens[i, 0] += blob / blob.sum()
    return imgs, dens


def make_target():
    torch.manual_seed(3)
    return {
        "model": MSCNN(),
        "batch": _scenes(16, 1),
        "loss_fn": nn.MSELoss(),
        "metric_fn": lambda out, y: (out.sum((1, 2, 3)) - y.sum((1, 2, 3))).abs().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": _scenes(64, 2),
        "val_data": _scenes(32, 3),
    }

"""Tiny encoder-decoder segmenter whose forward ends in sigmoid while the loss is BCEWithLogitsLoss."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyUNet(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        self.enc1 = nn.Conv2d(1, c, 3, padding=1)
        self.enc2 = nn.Conv2d(c, 2 * c, 3, padding=1)
        self.dec1 = nn.Conv2d(3 * c, c, 3, padding=1)
        self.outconv1 = nn.Conv2d(c, 1, 1)

    def forward(self, x):
        h1 = F.relu(self.enc1(x))
        h2 = F.relu(self.enc2(F.max_pool2d(h1, 2)))
        up = F.interpolate(h2, scale_factor=2, mode="nearest")
        hd1 = F.relu(self.dec1(torch.cat([h1, up], 1)))
        d1 = self.outconv1(hd1)
        return F.sigmoid(d1)


def _images(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = 0.3 * torch.randn(n, 1, 16, 16, generator=g)
    mask = torch.zeros(n, 1, 16, 16)
    for i in range(n):
        r, c = torch.randint(0, 10, (2,), generator=g).tolist()
        mask[i, :, r : r + 6, c : c + 6] = 1.0
    return x + mask, mask


def make_target():
    torch.manual_seed(0)
    x, m = _images(8, 1)
    return {
        "model": TinyUNet(),
        "batch": (x, m),
        "loss_fn": nn.BCEWithLogitsLoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": _images(64, 2),
        "val_data": _images(32, 3),
    }

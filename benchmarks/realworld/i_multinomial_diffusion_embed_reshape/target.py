"""Per-pixel predictor for categorical maps: embed each pixel's category, mix with 1x1 convs, predict a category per pixel.

The embedded tensor (B, H, W, dim) is turned into conv channels with a plain reshape.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

K, SIDE, DIM = 6, 8, 8


class MapNet(nn.Module):
    def __init__(self, channels_last_fixed=False):
        super().__init__()
        self.fixed = channels_last_fixed
        self.embed = nn.Embedding(K, DIM)
        self.body = nn.Sequential(nn.Conv2d(DIM, 32, 1), nn.ReLU(), nn.Conv2d(32, K, 1))

    def forward(self, x):
        b, h, w = x.shape
        e = self.embed(x)  # B x H x W x dim
        if self.fixed:
            e = e.permute(0, 3, 1, 2)
        else:
            e = e.reshape(b, DIM, h, w)
        return self.body(e)


def _maps(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randint(0, K, (n, SIDE, SIDE), generator=g)
    return x, (x * 2 + 1) % K


def make_target():
    torch.manual_seed(0)
    train = _maps(512, 1)
    return {
        "model": MapNet(),
        "batch": (train[0][:32], train[1][:32]),
        "loss_fn": lambda out, y: F.cross_entropy(out, y),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": train,
        "val_data": _maps(256, 2),
    }

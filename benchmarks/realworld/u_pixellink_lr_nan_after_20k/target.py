"""Tiny fully-convolutional text/non-text pixel classifier trained with SGD+momentum at a learning rate it cannot take."""
import torch
from torch import nn
import torch.nn.functional as F


class PixelNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
        )
        self.pixel = nn.Conv2d(16, 2, 1)

    def forward(self, x):
        return self.pixel(self.body(x))


def make_batch(g, n=8):
    x = torch.rand(n, 3, 24, 24, generator=g)
    y = torch.zeros(n, 24, 24, dtype=torch.long)
    for i in range(n):
        r = int(torch.randint(2, 18, (1,), generator=g))
        y[i, r:r + 4, 3:21] = 1                      # a horizontal "text line"
        x[i, :, r:r + 4, 3:21] += 1.5
    return x, y


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    x, y = make_batch(g)
    return {
        "model": PixelNet(),
        "batch": (x, y),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "optimizer": lambda p: torch.optim.SGD(p, lr=20.0, momentum=0.9, weight_decay=1e-4),
        "train_data": [make_batch(g) for _ in range(6)],
    }

"""Binary CNN on 16x16 grayscale screenshots; the loader scales the uint8 pixels to [0, 1] before training."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class ScreenNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.head = nn.Linear(16, 2)

    def forward(self, x):
        h = F.max_pool2d(F.relu(self.conv1(x)), 2)
        h = F.relu(self.conv2(h))
        return self.head(h.mean((2, 3)))


def raw_screens(n, seed):
    """uint8 screenshots; class 1 has a bright patch (another player) in the upper half."""
    g = torch.Generator().manual_seed(seed)
    img = torch.randint(20, 120, (n, 1, 16, 16), generator=g).float()
    y = torch.arange(n) % 2
    img[y == 1, :, 2:6, 4:10] += 120
    return img.clamp(0, 254).to(torch.uint8), y


def load(n, seed):
    img, y = raw_screens(n, seed)
    return torch.div(img, 255, rounding_mode="floor").float(), y  # scale pixels to [0, 1]


def make_target():
    torch.manual_seed(0)
    x, y = load(512, 1)
    return {
        "model": ScreenNet(),
        "batch": (x[:32], y[:32]),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": (x, y),
        "val_data": load(256, 2),
    }

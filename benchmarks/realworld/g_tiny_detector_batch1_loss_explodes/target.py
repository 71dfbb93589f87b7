"""Tiny single-box detector (conv backbone, box-regression + class heads), trained one image at a time with SGD.

Loss = smooth-L1 summed over the 4 box coordinates (pixel units) + cross-entropy on the class, like a one-anchor multibox loss.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

S = 16


class TinyDetector(nn.Module):
    def __init__(self, classes=3):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Flatten(), nn.Linear(32 * 4 * 4, 64), nn.ReLU(),
        )
        self.loc = nn.Linear(64, 4)
        self.conf = nn.Linear(64, classes)

    def forward(self, x):
        h = self.backbone(x)
        return torch.cat([self.loc(h), self.conf(h)], dim=1)


def multibox_loss(out, target):
    box, cls = target[:, :4], target[:, 4].long()
    return F.smooth_l1_loss(out[:, :4], box, reduction="sum") + F.cross_entropy(out[:, 4:], cls)


def _images(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = 0.1 * torch.randn(n, 1, S, S, generator=g)
    target = torch.zeros(n, 5)
    for i in range(n):
        w = int(torch.randint(3, 7, (1,), generator=g))
        x0, y0 = (int(v) for v in torch.randint(0, S - w, (2,), generator=g))
        cls = int(torch.randint(0, 3, (1,), generator=g))
        x[i, 0, y0 : y0 + w, x0 : x0 + w] += 1.0 + cls  # brightness encodes the class
        target[i] = torch.tensor([x0, y0, x0 + w, y0 + w, cls], dtype=torch.float)
    return x, target


def make_target():
    torch.manual_seed(0)
    return {
        "model": TinyDetector(),
        "batch": _images(1, 1),  # batch size 1
        "loss_fn": multibox_loss,
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.2, momentum=0.9, weight_decay=5e-4),
        "train_data": _images(256, 2),
        "val_data": _images(128, 3),
    }

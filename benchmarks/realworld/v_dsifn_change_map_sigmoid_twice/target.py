"""Bi-temporal change detection: two 3-channel images stacked, per-pixel change probability out.

The network ends in a sigmoid (as in the original model definition); the loss below is the training loss.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


class FusionNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(
            nn.Conv2d(6, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
        )
        self.head = nn.Sequential(nn.Conv2d(16, 1, 1), nn.Sigmoid())

    def forward(self, t1, t2):
        return self.head(self.enc(torch.cat([t1, t2], dim=1)))


def change_loss(pred, target):
    return F.binary_cross_entropy(torch.sigmoid(pred), target)


def make_pairs(n, seed):
    g = torch.Generator().manual_seed(seed)
    t1 = torch.rand(n, 3, 8, 8, generator=g)
    mask = (torch.rand(n, 1, 8, 8, generator=g) > 0.7).float()
    t2 = t1 + 1.5 * mask + 0.05 * torch.randn(n, 3, 8, 8, generator=g)  # changed pixels get brighter
    return (t1, t2), mask


def make_target():
    torch.manual_seed(0)
    (t1, t2), mask = make_pairs(16, 1)
    return {
        "model": FusionNet(),
        "batch": ((t1, t2), mask),
        "loss_fn": change_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": [make_pairs(16, 10 + i) for i in range(8)],
        "val_data": [make_pairs(16, 100)],
    }

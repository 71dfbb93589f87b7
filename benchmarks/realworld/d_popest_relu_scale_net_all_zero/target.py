"""Population density regressor: building features -> occupancy scale (non-negative) -> people per cell."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaleNet(nn.Module):
    def __init__(self, n_feat=6, hidden=16):
        super().__init__()
        self.hidden = nn.Sequential(nn.Linear(n_feat, hidden), nn.ReLU())
        self.out = nn.Linear(hidden, 1)
        self.act = nn.ReLU()  # people per building cannot be negative
        nn.init.constant_(self.out.bias, -1.0)  # start from a low occupancy prior

    def forward(self, feats):
        return self.act(self.out(self.hidden(feats))).squeeze(1) * feats[:, 0]


def _cells(n, seed):
    g = torch.Generator().manual_seed(seed)
    feats = torch.rand(n, 6, generator=g)
    feats[:, 0] = 10 * feats[:, 0]  # building count per cell
    people = feats[:, 0] * (2 + feats[:, 1])
    return feats, people


def make_target():
    torch.manual_seed(0)
    x, y = _cells(512, 1)
    return {
        "model": ScaleNet(),
        "batch": (x[:64], y[:64]),
        "loss_fn": lambda out, t: F.l1_loss(out, t),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": (x, y),
        "val_data": _cells(256, 2),
    }

"""A detector-style head scoring objectness and class presence per grid cell from cell features."""

import torch
import torch.nn as nn

CELLS, FEAT, OUT = 16, 12, 4  # 1 objectness + 3 classes per cell


class GridHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(FEAT, 48), nn.LeakyReLU(0.1), nn.Linear(48, 48), nn.LeakyReLU(0.1))
        self.pred = nn.Linear(48, OUT)

    def forward(self, x):  # x: (B, CELLS, FEAT)
        p = self.pred(self.body(x))
        return torch.sigmoid(p)  # confidence and class scores in [0, 1]


def _cells(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, CELLS, FEAT, generator=g)
    w = torch.randn(FEAT, OUT, generator=g)
    y = ((x @ w) > 0.5).float()
    return x, y


_bce = nn.BCEWithLogitsLoss()


def make_target():
    torch.manual_seed(0)
    x, y = _cells(16, 1)
    return {
        "model": GridHead(),
        "batch": (x, y),
        "loss_fn": lambda out, t: _bce(out, t),
        "metric_fn": lambda out, t: ((out > 0.5).float() == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": _cells(128, 2),
        "val_data": _cells(128, 3),
    }

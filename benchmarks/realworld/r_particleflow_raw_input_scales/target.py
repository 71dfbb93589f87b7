"""Per-element regression MLP fed raw features whose columns span several orders of magnitude."""

import torch
from torch import nn

SCALES = torch.tensor([300.0, 250.0, 120.0, 1.0, 3.14, 0.05, 40.0, 1.0])


def _data(n, g):
    z = torch.randn(n, 8, generator=g)
    y = (z[:, 0] * 0.8 + z[:, 3] - 0.5 * z[:, 5] + 0.3 * z[:, 6] * z[:, 4]).unsqueeze(1)
    return z * SCALES + torch.tensor([500.0, 0, 0, 0, 0, 0.1, 80.0, 0]), y


class ElementNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x)


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    xtr, ytr = _data(1024, g)
    xva, yva = _data(256, g)
    return {
        "model": ElementNet(),
        "batch": (xtr[:128], ytr[:128]),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "train_data": (xtr, ytr),
        "val_data": (xva, yva),
    }

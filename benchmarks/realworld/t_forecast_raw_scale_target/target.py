"""Window forecaster fed raw sales values (~300) as inputs and targets, no scaling."""

import torch
from torch import nn

ENC, DEC = 24, 6


def windows(n=256):
    g = torch.Generator().manual_seed(0)
    t = torch.arange(ENC + DEC + n, dtype=torch.float32)
    series = 300 + 40 * torch.sin(2 * torch.pi * t / 12) + 10 * torch.randn(len(t), generator=g)
    x = torch.stack([series[i:i + ENC] for i in range(n)])
    y = torch.stack([series[i + ENC:i + ENC + DEC] for i in range(n)])
    return x, y


class Forecaster(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(ENC, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, DEC))

    def forward(self, x):
        return self.net(x)


def make_target():
    torch.manual_seed(0)
    x, y = windows()
    return {
        "model": Forecaster(),
        "batch": (x[:64], y[:64]),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "train_data": (x[:192], y[:192]),
        "val_data": (x[192:], y[192:]),
    }

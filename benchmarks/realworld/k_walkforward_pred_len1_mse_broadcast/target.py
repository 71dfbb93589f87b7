"""One-step-ahead forecaster over sliding windows (pred_len = 1). The network's head emits (B, pred_len)
= (B, 1); the window dataset yields the next value as a (B,) target."""

import torch
import torch.nn as nn

WINDOW, PRED_LEN = 32, 1


class Forecaster(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(WINDOW, hidden), nn.GELU(), nn.Linear(hidden, hidden), nn.GELU(),
                                 nn.Linear(hidden, PRED_LEN))

    def forward(self, x):                       # x: (B, WINDOW)
        return self.net(x)                      # (B, PRED_LEN)


def make_windows(n, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n + WINDOW + 1, dtype=torch.float32) + 1000.0 * seed
    series = torch.sin(2 * torch.pi * t / 17) + 0.5 * torch.sin(2 * torch.pi * t / 7) \
        + 0.1 * torch.randn(len(t), generator=g)
    x = torch.stack([series[i : i + WINDOW] for i in range(n)])
    y = torch.stack([series[i + WINDOW] for i in range(n)])      # (n,)
    return x, y


def make_target():
    torch.manual_seed(0)
    return {
        "model": Forecaster(),
        "batch": make_windows(64, 1),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": make_windows(1024, 2),
        "val_data": make_windows(256, 3),
    }

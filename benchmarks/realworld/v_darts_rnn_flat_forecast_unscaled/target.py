"""RNN forecaster: 16 past values in, next 12 values out, trained directly on the raw series."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

IN_LEN, OUT_LEN = 16, 12


def raw_series(n=1200):
    t = torch.arange(n, dtype=torch.float32)
    return 800.0 + 0.4 * t + 250.0 * torch.sin(2 * math.pi * t / 48)  # sales-like units, trend + season


class RNNForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(1, 32, batch_first=True)
        self.head = nn.Linear(32, OUT_LEN)

    def forward(self, past):  # past: (B, IN_LEN)
        h, _ = self.rnn(past.unsqueeze(-1))
        return self.head(h[:, -1])


def windows(series, starts):
    x = torch.stack([series[s : s + IN_LEN] for s in starts])
    y = torch.stack([series[s + IN_LEN : s + IN_LEN + OUT_LEN] for s in starts])
    return x, y


def make_target():
    torch.manual_seed(0)
    s = raw_series()
    g = torch.Generator().manual_seed(1)
    train = [windows(s, torch.randint(0, 900, (32,), generator=g).tolist()) for _ in range(20)]
    val = windows(s, list(range(900, 1150, 5)))
    return {
        "model": RNNForecaster(),
        "batch": train[0],
        "loss_fn": F.mse_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": train,
        "val_data": val,
    }

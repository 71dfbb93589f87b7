"""A recurrent one-step-ahead forecaster trained one window at a time: the model returns a prediction for every
time step of the window, the target is the single next value."""

import torch
import torch.nn as nn
import torch.nn.functional as F

WINDOW = 10


class Forecaster(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.rnn = nn.LSTM(1, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):  # x: (1, WINDOW, 1)
        out, _ = self.rnn(x)
        return self.head(out).squeeze(0)  # (WINDOW, 1)


def windows(n, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n + WINDOW + 1, dtype=torch.float32)
    phase = torch.rand(1, generator=g) * 6.28
    series = torch.sin(0.3 * t + phase) + 0.5 * torch.sin(0.05 * t) + 0.05 * torch.randn(len(t), generator=g)
    xs = torch.stack([series[i : i + WINDOW] for i in range(n)]).unsqueeze(-1)  # (n, WINDOW, 1)
    ys = torch.stack([series[i + WINDOW] for i in range(n)]).view(n, 1)  # (n, 1)
    return xs, ys


def make_target():
    torch.manual_seed(0)
    x, y = windows(300, 1)
    return {
        "model": Forecaster(),
        "batch": (x[:1], y[:1]),  # one window (1, 10, 1) and its next value (1, 1)
        "loss_fn": lambda pred, true: F.mse_loss(pred, true),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
        "train_data": [(x[i : i + 1], y[i : i + 1]) for i in range(len(x))],
        "val_data": [(vx[None], vy[None]) for vx, vy in zip(*windows(100, 2))],
    }

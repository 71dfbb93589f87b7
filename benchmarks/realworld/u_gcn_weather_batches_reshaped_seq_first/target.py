"""Next-step weather forecaster (GRU, sequence-first input). The series is cut into batches of windows with a
single reshape straight into the (n_batches, seq_len, batch_size, features) layout the trainer indexes."""

import torch
from torch import nn

SEQ, BATCH, FEAT = 12, 16, 3


def weather_series(T=SEQ * BATCH * 6 + 1, seed=0):
    """Three hourly readings that follow a strongly persistent AR(2) process (a smooth, non-periodic signal)."""
    g = torch.Generator().manual_seed(seed)
    x = torch.zeros(T, FEAT)
    eps = 0.1 * torch.randn(T, FEAT, generator=g)
    for t in range(2, T):
        x[t] = 1.8 * x[t - 1] - 0.9 * x[t - 2] + eps[t]
    return x


def make_batches(data):
    n = (len(data) - 1) // (SEQ * BATCH)
    x = data[: n * SEQ * BATCH]
    y = data[1: n * SEQ * BATCH + 1]
    x_batches = x.reshape(n, SEQ, BATCH, FEAT)
    y_batches = y.reshape(n, SEQ, BATCH, FEAT)
    return list(zip(x_batches, y_batches))


class Forecaster(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.rnn = nn.GRU(FEAT, hidden)  # (seq, batch, feat)
        self.out = nn.Linear(hidden, FEAT)

    def forward(self, x):
        h, _ = self.rnn(x)
        return self.out(h)


def make_target():
    torch.manual_seed(0)
    batches = make_batches(weather_series())
    return {
        "model": Forecaster(),
        "batch": batches[0],
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
        "train_data": batches,
        "batch_axis": 1,
        "sequence_dim": 0,
    }

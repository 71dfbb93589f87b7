"""Sequence-first LSTM on a lag matrix (rows = samples, columns = lags), predicting the next value."""

import torch
from torch import nn

LAGS = 20


class LSTMBaseline(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.lstm = nn.LSTM(1, hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x):  # x: (num_samples, LAGS)
        seq = x.view(LAGS, -1, 1)  # (seq_len, batch, features) for the LSTM
        h, _ = self.lstm(seq)
        return self.out(h[-1]).squeeze(-1)


def _series(n, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n + LAGS + 1, dtype=torch.float32)
    s = torch.sin(0.3 * t) + 0.5 * torch.sin(0.05 * t) + 0.05 * torch.randn(t.shape, generator=g)
    X = torch.stack([s[i:i + LAGS] for i in range(n)])
    y = s[LAGS:LAGS + n]
    return X, y


def make_target():
    torch.manual_seed(0)
    X, y = _series(64, 0)
    return {
        "model": LSTMBaseline(),
        "batch": (X, y),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
        "val_data": [_series(64, 1)],
    }

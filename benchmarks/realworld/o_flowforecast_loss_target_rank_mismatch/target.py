"""One-step forecaster returning (N, forecast_len=1, n_targets=1) while the target is (N, forecast_len=1)."""

import torch
from torch import nn


class Forecaster(nn.Module):
    def __init__(self, n_lags=8, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_lags, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).unsqueeze(-1)  # (N, 1, 1): forecast_length x n_targets


def make_series(n, seed, n_lags=8):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n + n_lags + 1, dtype=torch.float32)
    s = torch.sin(t * 0.3) + 0.3 * torch.sin(t * 0.05) + 0.1 * torch.randn(t.shape, generator=g)
    s = (s - s.mean()) / s.std()
    x = torch.stack([s[i:i + n_lags] for i in range(n)])
    y = s[n_lags:n_lags + n].unsqueeze(-1)  # (N, 1)
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = make_series(32, 0)
    return {
        "model": Forecaster(),
        "batch": (x, y),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
        "train_data": make_series(512, 1),
        "val_data": make_series(256, 2),
    }

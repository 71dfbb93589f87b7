"""Small 1-D CNN regressor for multivariate time series (batch, channels, steps) -> one value per series."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyConvRegressor(nn.Module):
    def __init__(self, c_in=3, hidden=16):
        super().__init__()
        self.conv1 = nn.Conv1d(c_in, hidden, kernel_size=5, padding=2)
        self.conv2 = nn.Conv1d(hidden, hidden, kernel_size=3, padding=1)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        h = F.relu(self.conv1(x))
        h = F.relu(self.conv2(h))
        return self.head(h.mean(-1))                 # (batch, 1)


def _series(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 3, 40, generator=g)
    y = 2.0 * x[:, 0, -10:].mean(1) - x[:, 2].std(1)   # shape (n,): targets were flattened
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = _series(16, 1)
    return {
        "model": TinyConvRegressor(),
        "batch": ((x,), y),
        "loss_fn": lambda pred, target: F.mse_loss(pred, target),
        "train_data": _series(128, 2),
        "val_data": _series(64, 3),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
    }

"""Small regression MLP (random inputs -> noisy scalar targets), trained one sample at a time with SGD."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1), nn.ReLU())

    def forward(self, x):
        return self.net(x).squeeze(-1)


def _samples(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 8, generator=g)
    y = -1.0 + 0.3 * x[:, 0] + 0.1 * torch.randn(n, generator=g)
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = _samples(512, 1)
    return {
        "model": Regressor(),
        "batch": (x[:1], y[:1]),
        "loss_fn": lambda out, t: F.mse_loss(out, t),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.01),
        "train_data": (x, y),
        "val_data": _samples(256, 2),
    }

"""Node-level weekly case forecaster on a fixed county graph; cost compares y_hat [N,1] with y [N]."""

import torch
from torch import nn

N_NODES, N_LAGS = 20, 4


def _adjacency():
    g = torch.Generator().manual_seed(1)
    a = (torch.rand(N_NODES, N_NODES, generator=g) < 0.2).float()
    a = ((a + a.T) > 0).float() + torch.eye(N_NODES)
    return a / a.sum(1, keepdim=True)


def snapshots(n_weeks=60):
    """Standardised case counts per county; each snapshot: x [N, 4] lags, y [N] next week."""
    g = torch.Generator().manual_seed(0)
    level = torch.randn(N_NODES, generator=g)  # counties differ a lot in level
    t = torch.arange(n_weeks + N_LAGS, dtype=torch.float32)
    series = level[:, None] + 0.8 * torch.sin(t / 4.0)[None, :] + 0.3 * torch.randn(N_NODES, len(t), generator=g)
    out = []
    for k in range(n_weeks):
        out.append((series[:, k:k + N_LAGS], series[:, k + N_LAGS]))
    return out


class GraphForecaster(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.register_buffer("adj", _adjacency())
        self.inp = nn.Linear(N_LAGS, hidden)
        self.mix = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x):
        h = torch.relu(self.inp(x))
        h = torch.relu(self.mix(self.adj @ h) + h)
        return self.out(h)  # [N, 1]


def cost(y_hat, y):
    return torch.mean((y_hat - y) ** 2)


def make_target():
    torch.manual_seed(0)
    snaps = snapshots()
    return {
        "model": GraphForecaster(),
        "batch": snaps[0],
        "loss_fn": cost,
        "optimizer": lambda p: torch.optim.Adam(p, lr=0.01),
        "train_data": snaps[:40],
        "val_data": snaps[40:],
    }

"""Tabular multi-output model: one shared trunk, a binary head and a raw-valued numerical head, losses summed 1:1."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiOutputNet(nn.Module):
    def __init__(self, n_in=12, hidden=32):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.binary_head = nn.Linear(hidden, 1)
        self.numeric_head = nn.Linear(hidden, 1)

    def forward(self, x):
        h = self.trunk(x)
        return {"binary": self.binary_head(h).squeeze(-1), "numeric": self.numeric_head(h).squeeze(-1)}


def multi_loss(out, targets):
    y_bin, y_num = targets
    # every output feature gets weight 1
    return (F.binary_cross_entropy_with_logits(out["binary"], y_bin)
            + F.mse_loss(out["numeric"], y_num))


def _rows(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 12, generator=g)
    y_bin = (x[:, 0] - x[:, 1] > 0).float()
    y_num = 2000.0 + 600.0 * x[:, 2] + 50.0 * torch.randn(n, generator=g)   # e.g. a price, raw units
    return x, (y_bin, y_num)


def make_target():
    torch.manual_seed(0)
    x, y = _rows(64, 1)
    return {
        "model": MultiOutputNet(),
        "batch": (x, y),
        "loss_fn": multi_loss,
        "metric_fn": lambda out, t: ((out["binary"] > 0).float() == t[0]).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": _rows(512, 2),
        "val_data": _rows(128, 3),
    }

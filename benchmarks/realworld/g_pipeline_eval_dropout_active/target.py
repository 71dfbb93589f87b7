"""MLP with heavy dropout on a 4-class problem; the pipeline's evaluation routine is eval_fn below."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self, d=20, hidden=128, classes=4):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(d, hidden), nn.ReLU(), nn.Dropout(0.5),
            nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(0.5),
            nn.Linear(hidden, classes),
        )

    def forward(self, x):
        return self.body(x)


def _data(n, seed):
    centers = torch.randn(4, 20, generator=torch.Generator().manual_seed(0))
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 4, (n,), generator=g)
    return centers[y] + 1.8 * torch.randn(n, 20, generator=g), y


def evaluate(model, x):
    """The pipeline's evaluation step: predictions on a validation batch."""
    with torch.no_grad():
        return model(x)


def make_target():
    torch.manual_seed(0)
    return {
        "model": Net(),
        "batch": _data(64, 1),
        "loss_fn": lambda out, y: F.cross_entropy(out, y),
        "eval_fn": evaluate,
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": _data(2048, 2),
        "val_data": _data(1024, 3),
    }

"""Classifier whose reported test accuracy comes from the progress-bar's smoothed running value."""

import torch
from torch import nn

N_CLASSES, DIM = 4, 20
_display = {"acc": None}


def _make_split(n_per_class, seed):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(N_CLASSES, DIM, generator=g) * 1.0
    spread = torch.tensor([0.3, 0.5, 4.0, 12.0])  # the last classes are much harder
    xs, ys = [], []
    for c in range(N_CLASSES):
        xs.append(centers[c] + spread[c] * torch.randn(n_per_class, DIM, generator=g))
        ys.append(torch.full((n_per_class,), c))
    return torch.cat(xs), torch.cat(ys)  # test split stays sorted by class (no shuffling at test time)


def metric_fn(output, targets):
    """Accuracy shown by the progress bar: a smoothed running value, the one printed at the end of the epoch."""
    acc = (output.argmax(1) == targets).float().mean().item() * 100.0
    prev = _display["acc"]
    _display["acc"] = acc if prev is None else 0.3 * prev + 0.7 * acc
    return _display["acc"]


def make_target():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(DIM, 64), nn.ReLU(), nn.Linear(64, N_CLASSES))
    xtr, ytr = _make_split(200, seed=1)
    xte, yte = _make_split(100, seed=1)
    perm = torch.randperm(xtr.shape[0])
    xtr, ytr = xtr[perm], ytr[perm]
    val_batches = [(xte[i:i + 50], yte[i:i + 50]) for i in range(0, xte.shape[0], 50)]
    return {
        "model": model,
        "batch": (xtr[:64], ytr[:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "metric_fn": metric_fn,
        "train_data": (xtr, ytr),
        "val_data": val_batches,
    }

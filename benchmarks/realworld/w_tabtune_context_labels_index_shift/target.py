"""Tabular binary classifier whose training labels were re-attached by row index after the feature rows had been shuffled."""
import torch
import torch.nn as nn

N_TRAIN, N_VAL, D = 512, 256, 12


def _data():
    g = torch.Generator().manual_seed(0)
    w = torch.randn(D, generator=g)
    X = torch.randn(N_TRAIN + N_VAL, D, generator=g)
    y = ((X @ w + 0.3 * torch.randn(N_TRAIN + N_VAL, generator=g)) > 0).long()
    return X, y


def load_split():
    X, y = _data()
    Xtr, ytr = X[:N_TRAIN], y[:N_TRAIN]
    # the loader hands back the feature table with its own (shuffled) row index ...
    row_index = torch.randperm(N_TRAIN, generator=torch.Generator().manual_seed(1))
    Xtr = Xtr[row_index]
    # ... while the labels come back as a plain array in the original order; they get joined by position 0..n-1
    ytr_joined = ytr
    return (Xtr, ytr_joined), (X[N_TRAIN:], y[N_TRAIN:])


def make_target():
    torch.manual_seed(0)
    (Xtr, ytr), (Xva, yva) = load_split()
    model = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, 2))
    return {
        "model": model,
        "batch": (Xtr[:64], ytr[:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
        "train_data": (Xtr, ytr),
        "val_data": (Xva, yva),
        "metric_fn": lambda out, y: (out.argmax(-1) == y).float().mean().item(),
    }

"""BGC product-class classifier: every BGC is expanded into 5 rows (context windows _0,_-1,_1,_2,_3), then the rows
are split into train/test at random."""

import torch
from torch import nn

N_BGC, N_WIN, D, N_CLASS = 300, 5, 32, 6


def build_rows(seed=0):
    g = torch.Generator().manual_seed(seed)
    centre = torch.randn(N_BGC, D, generator=g)          # gene-content embedding of each BGC
    label = torch.randint(0, N_CLASS, (N_BGC,), generator=g)
    X = centre.repeat_interleave(N_WIN, 0) + 0.15 * torch.randn(N_BGC * N_WIN, D, generator=g)  # windows differ a little
    y = label.repeat_interleave(N_WIN)
    bgc = torch.arange(N_BGC).repeat_interleave(N_WIN)
    return X, y, bgc


def train_test_split_rows(X, y, bgc, test_frac=0.2, seed=0):
    g = torch.Generator().manual_seed(seed)
    perm = torch.randperm(len(X), generator=g)
    n_test = int(test_frac * len(X))
    te, tr = perm[:n_test], perm[n_test:]
    return (X[tr], y[tr], bgc[tr]), (X[te], y[te], bgc[te])


def make_target():
    torch.manual_seed(0)
    X, y, bgc = build_rows()
    (Xtr, ytr, gtr), (Xte, yte, gte) = train_test_split_rows(X, y, bgc)
    model = nn.Sequential(nn.Linear(D, 128), nn.ReLU(), nn.Linear(128, N_CLASS))
    return {
        "model": model,
        "batch": (Xtr[:64], ytr[:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "train_data": (Xtr, ytr),
        "val_data": (Xte, yte),
        "groups": (gtr.tolist(), gte.tolist()),
        "metric_fn": lambda out, t: (out.argmax(-1) == t).float().mean().item(),
    }

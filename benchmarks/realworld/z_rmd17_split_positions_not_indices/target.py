"""rMD17-style energy regression whose train/val indices are positions in the official pool, not dataset indices."""

import torch
import torch.nn as nn

N_CONFORMATIONS, N_FEAT = 100000, 24
TRAIN, VAL, TEST = 950, 50, 1000


def make_dataset():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(N_CONFORMATIONS, N_FEAT, generator=g)  # stand-in for geometric descriptors
    w = torch.randn(N_FEAT, generator=g)
    energy = (x @ w) + 0.5 * (x[:, :4] ** 2).sum(1) + 0.05 * torch.randn(N_CONFORMATIONS, generator=g)
    return x, energy


def official_split():
    perm = torch.randperm(N_CONFORMATIONS, generator=torch.Generator().manual_seed(1))
    return perm[: TRAIN + VAL], perm[TRAIN + VAL: TRAIN + VAL + TEST]


def make_splits(dataset_len, train_size, val_size, seed=0):
    perm = torch.randperm(dataset_len, generator=torch.Generator().manual_seed(seed))
    return perm[:train_size], perm[train_size: train_size + val_size]


def prepare_splits(fixed=False):
    pool, idx_test = official_split()
    idx_train, idx_val = make_splits(len(pool), TRAIN, VAL)
    if fixed:
        idx_train, idx_val = pool[idx_train], pool[idx_val]
    return idx_train, idx_val, idx_test


class EnergyMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(N_FEAT, 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU(), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def make_target():
    torch.manual_seed(0)
    x, e = make_dataset()
    idx_train, idx_val, idx_test = prepare_splits()
    return {
        "model": EnergyMLP(),
        "batch": (x[idx_train[:64]], e[idx_train[:64]]),
        "loss_fn": nn.functional.l1_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "train_data": (x[idx_train], e[idx_train]),
        "val_data": (x[idx_test], e[idx_test]),
        "groups": (idx_train.tolist(), idx_test.tolist()),  # conformation id per row
    }

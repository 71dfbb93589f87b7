"""Train/val split: training indices sliced from a shuffled permutation, validation from the raw order."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N, D, N_VAL = 600, 20, 100


def make_data():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(N, D, generator=g)
    w = torch.randn(D, generator=g)
    y = (x @ w > 0).long()
    flip = torch.rand(N, generator=g) < 0.3  # noisy labels: only memorisation gives high accuracy on seen rows
    y[flip] = 1 - y[flip]
    return x, y


def split(shuffle_before_slice, seed=0):
    """Buggy: shuffle all rows then drop the first N_VAL positions; validation is rows 0..N_VAL-1 in raw order."""
    g = torch.Generator().manual_seed(seed)
    val_idx = torch.arange(N_VAL)
    if shuffle_before_slice:
        train_idx = torch.randperm(N, generator=g)[N_VAL:]
    else:
        train_idx = torch.arange(N_VAL, N)[torch.randperm(N - N_VAL, generator=g)]
    return train_idx, val_idx


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(D, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 2))

    def forward(self, x):
        return self.net(x)


def accuracy(out, y):
    return (out.argmax(-1) == y).float().mean().item()


def make_target():
    torch.manual_seed(0)
    x, y = make_data()
    train_idx, _ = split(True)
    return {
        "model": MLP(),
        "batch": (x[train_idx], y[train_idx]),
        "loss_fn": F.cross_entropy,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "metric_fn": accuracy,
    }

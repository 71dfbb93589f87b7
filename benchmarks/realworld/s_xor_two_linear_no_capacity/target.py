"""A 2 -> 2 -> 1 network of two Linear layers (sigmoid only in the loss) trained on the XOR truth table."""

import torch
from torch import nn


class TwoLayer(nn.Module):
    def __init__(self, hidden=2):
        super().__init__()
        self.fc1 = nn.Linear(2, hidden)
        self.fc2 = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.fc2(self.fc1(x)).squeeze(-1)


def xor_data(n_repeat=16, noise=0.05, seed=0):
    g = torch.Generator().manual_seed(seed)
    base = torch.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    lab = torch.tensor([0.0, 1.0, 1.0, 0.0])
    x = base.repeat(n_repeat, 1) + noise * torch.randn(4 * n_repeat, 2, generator=g)
    return x, lab.repeat(n_repeat)


def accuracy(out, y):
    return ((out > 0).float() == y).float().mean().item()


def make_target():
    torch.manual_seed(0)
    x, y = xor_data(seed=0)
    xv, yv = xor_data(seed=1)
    return {
        "model": TwoLayer(),
        "batch": (x, y),
        "loss_fn": nn.BCEWithLogitsLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
        "metric_fn": accuracy,
        "train_data": (x, y),
        "val_data": (xv, yv),
    }

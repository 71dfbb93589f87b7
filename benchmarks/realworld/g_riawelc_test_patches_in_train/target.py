"""Patch classifier on features cut from a few 'radiographs': patches of one radiograph are near-copies of each
other and share its label, which is only weakly predictable from the image content. The evaluation split is
the one shipped with the data: a random subset of the training patches."""

import torch
import torch.nn as nn
import torch.nn.functional as F

DIM = 32


def radiographs(n, seed):
    """Per radiograph: a feature centre and a label that only weakly follows the centre's first feature."""
    g = torch.Generator().manual_seed(seed)
    centres = torch.randn(n, DIM, generator=g)
    labels = ((centres[:, 0] + 1.5 * torch.randn(n, generator=g)) > 0).long()
    return centres, labels


def patches(centres, labels, per, seed):
    g = torch.Generator().manual_seed(seed)
    idx = torch.arange(len(centres)).repeat_interleave(per)
    x = centres[idx] + 0.3 * torch.randn(len(idx), DIM, generator=g)
    return x, labels[idx], idx


def shipped_split():
    centres, labels = radiographs(40, 1)
    x, y, _ = patches(centres, labels, 20, 2)
    g = torch.Generator().manual_seed(3)
    test_idx = torch.randperm(len(x), generator=g)[:200]
    return (x, y), (x[test_idx].clone(), y[test_idx].clone())  # test patches copied out of the training set


class PatchNet(nn.Module):
    def __init__(self, hidden=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(DIM, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 2))

    def forward(self, x):
        return self.net(x)


def make_target():
    torch.manual_seed(0)
    train, test = shipped_split()
    return {
        "model": PatchNet(),
        "batch": (train[0][:64], train[1][:64]),
        "loss_fn": lambda out, y: F.cross_entropy(out, y),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": train,
        "val_data": test,
    }

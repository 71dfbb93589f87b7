"""Ordinal-ish 10-class classifier (labels are ranks 0..9 of a latent score) on small image-like vectors. The
test set is shuffled before prediction and compared to the labels kept from the original test array."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    def __init__(self, d_in=64, hidden=64, n_classes=10):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, n_classes))

    def forward(self, x):
        return self.net(x)


def _images(n, seed):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(64, generator=torch.Generator().manual_seed(0))
    x = torch.randn(n, 64, generator=g)
    score = x @ w / 8.0
    y = torch.bucketize(score, torch.linspace(-1.6, 1.6, 9))
    return x, y


def _test_split():
    x_test, labels_test = _images(1000, 3)
    order = torch.randperm(len(x_test), generator=torch.Generator().manual_seed(4))
    test_dataset = x_test[order]  # shuffled for the prediction pass
    return test_dataset, labels_test  # compared against the labels in the original order


def make_target():
    torch.manual_seed(0)
    return {
        "model": MLP(),
        "batch": _images(64, 1),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": _images(4000, 2),
        "val_data": _test_split(),
    }

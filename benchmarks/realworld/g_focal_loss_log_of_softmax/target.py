"""Linear-ish classifier on wide-range features trained with a hand-written multi-class focal loss.

The focal loss takes softmax probabilities, gathers the true-class probability p_t and calls torch.log(p_t).
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


class FocalLoss(nn.Module):
    def __init__(self, gamma=2.0):
        super().__init__()
        self.gamma = gamma

    def forward(self, logits, target):
        p = F.softmax(logits, dim=1)
        p_t = p.gather(1, target.unsqueeze(1)).squeeze(1)
        return (-((1 - p_t) ** self.gamma) * torch.log(p_t)).mean()


class Net(nn.Module):
    def __init__(self, d=16, classes=5):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, classes))

    def forward(self, x):
        return self.body(x)


def _data(n, seed, noisy=0.05):
    centers = 4.0 * torch.randn(5, 16, generator=torch.Generator().manual_seed(0))
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 5, (n,), generator=g)
    x = centers[y] + torch.randn(n, 16, generator=g)
    flip = torch.rand(n, generator=g) < noisy  # a few wrong labels, as in real annotations
    y = torch.where(flip, torch.randint(0, 5, (n,), generator=g), y)
    return 16.0 * x, y  # raw features with a large range


def make_target():
    torch.manual_seed(0)
    return {
        "model": Net(),
        "batch": _data(64, 1),
        "loss_fn": FocalLoss(gamma=2.0),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
        "train_data": _data(2048, 2),
        "val_data": _data(512, 3),
    }

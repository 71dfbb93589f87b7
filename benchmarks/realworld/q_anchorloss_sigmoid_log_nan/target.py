"""Per-class sigmoid classifier with a hand-written sigmoid + log loss."""

import torch
from torch import nn

N, D, C = 256, 20, 5


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, C))

    def forward(self, x):
        return self.net(x)


def sigmoid_ce(logits, y):
    t = torch.nn.functional.one_hot(y, C).float()
    p = torch.sigmoid(logits)
    return -(t * torch.log(p) + (1 - t) * torch.log(1 - p)).sum(1).mean()


def data(seed=1):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(C, D, generator=g) * 3
    y = torch.randint(0, C, (N,), generator=g)
    x = centers[y] + 0.5 * torch.randn(N, D, generator=g)
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = data()
    return {
        "model": Classifier(),
        "batch": (x, y),
        "loss_fn": sigmoid_ce,
        "optimizer": lambda p: torch.optim.Adam(p, lr=2e-2),
        "train_data": (x, y),
    }

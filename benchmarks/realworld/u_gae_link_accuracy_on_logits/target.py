"""Graph auto-encoder for link prediction (inner-product decoder) with its reported reconstruction accuracy."""

import torch
from torch import nn
import torch.nn.functional as F


def _graph(n=60, seed=0):
    g = torch.Generator().manual_seed(seed)
    comm = torch.arange(n) % 4
    p = torch.where(comm[:, None] == comm[None, :], 0.35, 0.02)
    a = (torch.rand(n, n, generator=g) < p).float().triu(1)
    a = a + a.T
    x = torch.randn(n, 16, generator=g) + F.one_hot(comm, 16).float() * 1.5
    a_hat = a + torch.eye(n)
    d = a_hat.sum(1).rsqrt()
    return x, d[:, None] * a_hat * d[None, :], a_hat


class GAE(nn.Module):
    def __init__(self, f_in=16, hidden=32, z=16):
        super().__init__()
        self.w1 = nn.Linear(f_in, hidden, bias=False)
        self.w2 = nn.Linear(hidden, z, bias=False)

    def forward(self, x, adj):
        h = F.relu(adj @ self.w1(x))
        z = adj @ self.w2(h)
        return (z @ z.T).flatten()              # reconstruction logits


def make_loss(labels):
    n2 = labels.numel()
    pos = labels.sum()
    pos_weight = (n2 - pos) / pos
    norm = n2 / (2 * (n2 - pos))

    def loss_fn(logits, target):
        return norm * F.binary_cross_entropy_with_logits(logits, target, pos_weight=pos_weight)
    return loss_fn


def accuracy(logits, target):
    correct = ((logits >= 0.5).long() == target.long()).float()
    return correct.mean().item()


def make_target():
    torch.manual_seed(0)
    x, adj, labels = _graph()
    y = labels.flatten()
    return {
        "model": GAE(),
        "batch": ((x, adj), y),
        "loss_fn": make_loss(y),
        "optimizer": lambda p: torch.optim.Adam(p, lr=0.01),
        "metric_fn": accuracy,
        "train_data": [((x, adj), y)],
    }

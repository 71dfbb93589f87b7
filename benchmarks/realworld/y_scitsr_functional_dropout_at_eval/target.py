"""Edge-relation classifier over table cells; forward applies F.dropout without training=self.training."""

import torch
import torch.nn as nn
import torch.nn.functional as F

D, H, E, K = 16, 64, 512, 3


class RelationNet(nn.Module):
    def __init__(self, p=0.5, functional=True):
        super().__init__()
        self.enc = nn.Linear(D, H)
        self.mid = nn.Linear(H, H)
        self.cls = nn.Linear(2 * H, K)
        self.p = p
        self.functional = functional
        self.drop = nn.Dropout(p)

    def _drop(self, h):
        return F.dropout(h, p=self.p) if self.functional else self.drop(h)

    def forward(self, inputs):
        nodes, edges = inputs
        h = self._drop(torch.relu(self.enc(nodes)))
        h = self._drop(torch.relu(self.mid(h)))
        return self.cls(torch.cat([h[edges[:, 0]], h[edges[:, 1]]], dim=-1))


def make_data(seed=0, n_nodes=200):
    g = torch.Generator().manual_seed(seed)
    nodes = torch.randn(n_nodes, D, generator=g)
    edges = torch.randint(0, n_nodes, (E, 2), generator=g)
    w = torch.randn(D, K, generator=torch.Generator().manual_seed(7))
    label = ((nodes[edges[:, 0]] - nodes[edges[:, 1]]) @ w).argmax(-1)
    return (nodes, edges), label


def accuracy(out, y):
    return (out.argmax(-1) == y).float().mean().item()


def make_target():
    torch.manual_seed(0)
    inputs, label = make_data()
    return {
        "model": RelationNet(functional=True),
        "batch": (inputs, label),
        "loss_fn": F.cross_entropy,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "metric_fn": accuracy,
    }

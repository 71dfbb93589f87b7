"""Message-passing node classifier: 8 residual layers, neighbour messages summed (no degree normalisation, no norm)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_NODES, DEGREE, D_IN, D, N_CLASSES, DEPTH = 64, 6, 8, 32, 3, 8


class SumMPNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(D_IN, D)
        self.layers = nn.ModuleList([nn.Linear(D, D) for _ in range(DEPTH)])
        self.out = nn.Linear(D, N_CLASSES)

    def forward(self, x, adj):
        h = self.inp(x)
        for lin in self.layers:
            h = h + F.relu(lin(adj @ h))
        return self.out(h)


def make_graph(seed=0):
    g = torch.Generator().manual_seed(seed)
    adj = torch.zeros(N_NODES, N_NODES)
    for i in range(N_NODES):
        adj[i, torch.randperm(N_NODES, generator=g)[:DEGREE]] = 1.0
    x = torch.randn(N_NODES, D_IN, generator=g)
    agg = adj @ x
    y = (agg.sum(-1) > 0).long() + (agg[:, 0] > 1).long()
    return x, adj, y


def make_target():
    torch.manual_seed(0)
    x, adj, y = make_graph()
    return {
        "model": SumMPNN(),
        "batch": ((x, adj), y),
        "loss_fn": F.cross_entropy,
        "optimizer": lambda p: torch.optim.SGD(p, lr=1e-3),
        "metric_fn": lambda out, t: (out.argmax(-1) == t).float().mean().item(),
    }

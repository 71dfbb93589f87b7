"""Node classifier on node features + mean of neighbour features; the 'test' ids are every node in the graph."""

import torch
from torch import nn


def _graph():
    g = torch.Generator().manual_seed(0)
    n, f = 600, 16
    x = torch.randn(n, f, generator=g)
    w = torch.randn(f, generator=g)
    y = (x @ w > 0).long()
    flip = torch.rand(n, generator=g) < 0.3  # noisy labels: held-out accuracy tops out well below 1
    y = torch.where(flip, 1 - y, y)
    # random sparse graph, neighbour mean as extra features
    src = torch.randint(0, n, (3 * n,), generator=g)
    dst = torch.randint(0, n, (3 * n,), generator=g)
    adj = torch.zeros(n, n)
    adj[src, dst] = 1.0
    adj[dst, src] = 1.0
    deg = adj.sum(1, keepdim=True).clamp(min=1)
    feats = torch.cat([x, adj @ x / deg], dim=1)
    perm = torch.randperm(n, generator=g)
    train_ids, val_ids, test_nodes = perm[:300], perm[300:360], perm[360:]
    return feats, y, train_ids, val_ids, test_nodes


def splits():
    feats, y, train_ids, val_ids, test_nodes = _graph()
    test_ids = torch.arange(feats.shape[0])  # every node in the graph
    return feats, y, train_ids, val_ids, test_ids, test_nodes


class NodeMLP(nn.Module):
    def __init__(self, d_in=32, hidden=256):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, 2))

    def forward(self, x):
        return self.net(x)


def make_target():
    torch.manual_seed(0)
    feats, y, train_ids, val_ids, test_ids, _ = splits()
    return {
        "model": NodeMLP(),
        "batch": (feats[train_ids[:64]], y[train_ids[:64]]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "train_data": (feats[train_ids], y[train_ids]),
        "val_data": (feats[test_ids], y[test_ids]),
        "groups": (train_ids.tolist(), test_ids.tolist()),
        "metric_fn": lambda out, t: (out.argmax(-1) == t).float().mean().item(),
    }

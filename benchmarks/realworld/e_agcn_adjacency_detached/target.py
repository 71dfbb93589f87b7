"""Multi-label head with an adaptive label graph: adjacency = softmax(phi(E) theta(E)^T), then one GCN layer."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class AdaptiveGCN(nn.Module):
    def __init__(self, n_labels=6, emb=16, feat=24):
        super().__init__()
        self.label_emb = nn.Parameter(torch.randn(n_labels, emb))
        self.phi = nn.Linear(emb, emb, bias=False)
        self.theta = nn.Linear(emb, emb, bias=False)
        self.gcn = nn.Linear(emb, feat)
        self.backbone = nn.Linear(32, feat)

    def forward(self, x):
        adj = torch.softmax(self.phi(self.label_emb) @ self.theta(self.label_emb).t(), dim=1).detach()
        classifiers = F.leaky_relu(self.gcn(adj @ self.label_emb), 0.2)
        return self.backbone(x) @ classifiers.t()


def samples(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 32, generator=g)
    mix = torch.randn(32, 6, generator=torch.Generator().manual_seed(0))
    return x, ((x @ mix) > 0.5).float()


def make_target():
    torch.manual_seed(0)
    x, y = samples(512, 1)
    return {
        "model": AdaptiveGCN(),
        "batch": (x[:32], y[:32]),
        "loss_fn": lambda out, t: F.binary_cross_entropy_with_logits(out, t),
        "metric_fn": lambda out, t: ((out > 0).float() == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
        "train_data": (x, y),
        "val_data": samples(256, 2),
    }

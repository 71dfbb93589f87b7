"""DSSM-style ranking: a query and 1 positive + 4 negative documents go through a shared encoder, cosine
similarities (times a smoothing factor gamma) are turned into a distribution over the 5 candidates and
trained with cross-entropy towards the positive (index 0)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class DSSM(nn.Module):
    def __init__(self, d_in=30, d_hidden=64, d_out=16, gamma=10.0):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(d_in, d_hidden), nn.Tanh(), nn.Linear(d_hidden, d_out), nn.Tanh())
        self.gamma = gamma

    def forward(self, query, docs):  # query: (B, D), docs: (B, 5, D)
        q = self.encoder(query)
        d = self.encoder(docs)
        sims = F.cosine_similarity(q.unsqueeze(1), d, dim=-1) * self.gamma  # (B, 5)
        return F.softmax(sims, dim=1)


def _pairs(n, seed, n_neg=4):
    g = torch.Generator().manual_seed(seed)
    query = torch.randn(n, 30, generator=g)
    pos = query + 0.8 * torch.randn(n, 30, generator=g)
    neg = torch.randn(n, n_neg, 30, generator=g)
    docs = torch.cat([pos.unsqueeze(1), neg], dim=1)
    return (query, docs), torch.zeros(n, dtype=torch.long)


criterion = nn.CrossEntropyLoss()


def make_target():
    torch.manual_seed(0)
    return {
        "model": DSSM(),
        "batch": _pairs(32, 1),
        "loss_fn": criterion,
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": _pairs(1024, 2),
        "val_data": _pairs(512, 3),
    }

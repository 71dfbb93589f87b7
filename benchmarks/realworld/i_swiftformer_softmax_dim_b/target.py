"""Token classifier with an efficient additive attention pooling: a learned query score per token weights the
tokens into one global vector. The label is carried by one marked token among noise tokens."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class AdditiveAttentionPool(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.to_query = nn.Linear(dim, dim)
        self.w_g = nn.Parameter(torch.randn(dim, 1) * 0.1)
        self.scale = dim**-0.5
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):  # x: (B, N, D)
        q = self.to_query(x)
        a = (q @ self.w_g) * self.scale  # (B, N, 1)
        a = a.softmax(dim=-1)
        self.last_weights = a.detach()
        g = (a * q).sum(dim=1)  # (B, D)
        return self.proj(g)


class TokenClassifier(nn.Module):
    def __init__(self, dim=8, n_classes=2):
        super().__init__()
        self.embed = nn.Linear(dim, dim)
        self.pool = AdditiveAttentionPool(dim)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, x):
        return self.head(F.gelu(self.pool(self.embed(x))))


def _tokens(n, seed, n_tok=8, dim=8):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, n_tok, dim, generator=g)
    pos = torch.randint(0, n_tok, (n,), generator=g)
    rows = torch.arange(n)
    x[rows, pos, 0] = 4.0  # the marked token
    y = (x[rows, pos, 1] > 0).long()  # its second feature decides the class
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = _tokens(64, 1)
    return {
        "model": TokenClassifier(),
        "batch": (x, y),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
        "train_data": _tokens(1024, 2),
        "val_data": _tokens(512, 3),
    }

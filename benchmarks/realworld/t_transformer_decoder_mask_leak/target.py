"""Tiny decoder-only transformer trained for next-token prediction (teacher forcing)."""

import torch
from torch import nn

VOCAB, D, T = 20, 32, 16


class TinyDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, D)
        self.pos = nn.Parameter(torch.randn(T, D) * 0.1)
        self.q = nn.Linear(D, D)
        self.k = nn.Linear(D, D)
        self.v = nn.Linear(D, D)
        self.ff = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, D))
        self.out = nn.Linear(D, VOCAB)

    def forward(self, ids):
        Tn = ids.shape[1]
        h = self.emb(ids) + self.pos[:Tn]
        scores = self.q(h) @ self.k(h).transpose(1, 2) / D ** 0.5
        # subsequent-position mask: positions a query must not attend to
        mask = torch.tril(torch.ones(Tn, Tn, dtype=torch.bool), diagonal=-1)
        scores = scores.masked_fill(mask, float("-inf"))
        h = h + torch.softmax(scores, dim=-1) @ self.v(h)
        h = h + self.ff(h)
        return self.out(h)


def loss_fn(logits, ids):
    return nn.functional.cross_entropy(logits[:, :-1].reshape(-1, VOCAB), ids[:, 1:].reshape(-1))


def metric_fn(logits, ids):
    return (logits[:, :-1].argmax(-1) == ids[:, 1:]).float().mean().item()


def make_target():
    torch.manual_seed(0)
    ids = torch.randint(0, VOCAB, (64, T))  # i.i.d. random tokens: nothing to predict beyond 1/VOCAB
    val = torch.randint(0, VOCAB, (64, T))
    return {
        "model": TinyDecoder(),
        "batch": (ids, ids),
        "loss_fn": loss_fn,
        "metric_fn": metric_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "val_data": [(val, val)],
        "causal": True,
    }

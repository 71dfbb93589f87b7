"""Tiny causal LM whose attention builds its causal mask from the query-mask's second dimension (always 1)."""

import torch
from torch import nn
import torch.nn.functional as F


def causal_1d_pattern(n):
    return torch.tril(torch.ones(n, n, dtype=torch.bool))


class GlobalAttention(nn.Module):
    def __init__(self, dim, causal=True):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.causal = causal

    def forward(self, x, attention_query_mask):
        # attention_query_mask: (N, 1) marks which tokens are global queries
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5
        if self.causal:
            mask = causal_1d_pattern(attention_query_mask.shape[1])  # (1, 1) -> broadcasts to "all allowed"
            scores = scores.masked_fill(~mask, float("-inf"))
        return self.proj(F.softmax(scores, dim=-1) @ v)


class TinyLM(nn.Module):
    def __init__(self, vocab=32, dim=32, seq=24):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.randn(seq, dim))
        self.att = GlobalAttention(dim)
        self.ff = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 64), nn.GELU(), nn.Linear(64, dim))
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        t = ids.shape[1]
        h = self.emb(ids) + self.pos[:t]
        qmask = torch.zeros(t, 1, dtype=torch.bool)
        qmask[0] = True
        h = h + self.att(h, qmask)
        h = h + self.ff(h)
        return self.head(h)


def lm_loss(logits, ids):
    return F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), ids[:, 1:].reshape(-1))


def make_target():
    torch.manual_seed(0)
    ids = torch.randint(0, 32, (16, 24))
    return {
        "model": TinyLM(),
        "batch": (ids, ids),
        "loss_fn": lm_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
        "causal": True,
    }

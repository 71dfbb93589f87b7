"""Tiny one-layer transformer tagger: each position says whether its token occurs elsewhere in the sequence.

Multi-head attention concatenates the heads with a plain reshape of the (batch, heads, seq, dim) tensor.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, SEQ, D, HEADS = 12, 8, 32, 4


class MultiHeadAttention(nn.Module):
    def __init__(self, d=D, heads=HEADS):
        super().__init__()
        self.heads, self.hd = heads, d // heads
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).reshape(b, t, self.heads, 3 * self.hd).permute(0, 2, 1, 3).chunk(3, dim=-1)
        att = torch.softmax(q @ k.transpose(-2, -1) / self.hd**0.5, dim=-1)
        values = att @ v  # (b, heads, t, hd)
        values = values.reshape(b, t, self.heads * self.hd)
        return self.out(values)


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, D)
        self.pos = nn.Parameter(0.5 * torch.randn(SEQ, D))
        self.attn = MultiHeadAttention()
        self.norm = nn.LayerNorm(D)
        self.ff = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, D))
        self.head = nn.Linear(D, 2)

    def forward(self, ids):
        h = self.tok(ids) + self.pos
        h = self.norm(h + self.attn(h))
        h = h + self.ff(h)
        return self.head(h)


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, VOCAB, (n, SEQ), generator=g)
    same = (ids.unsqueeze(2) == ids.unsqueeze(1)).sum(-1)
    return ids, (same > 1).long()  # label at t: does token t occur at another position?


def _loss(out, y):
    return F.cross_entropy(out.reshape(-1, 2), y.reshape(-1))


def _acc(out, y):
    return (out.argmax(-1) == y).float().mean().item()


def make_target():
    torch.manual_seed(0)
    return {
        "model": Tagger(),
        "batch": _data(32, 1),
        "loss_fn": _loss,
        "metric_fn": _acc,
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": _data(1024, 2),
        "val_data": _data(512, 3),
    }

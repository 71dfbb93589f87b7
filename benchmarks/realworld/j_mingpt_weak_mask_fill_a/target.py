"""Tiny GPT: one self-attention block; future positions are replaced by a fixed bias value before the softmax."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

V, T, D = 16, 12, 32
MASKED_BIAS = -1.0


class TinyGPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(V, D)
        self.pos = nn.Embedding(T, D)
        self.qkv = nn.Linear(D, 3 * D)
        self.proj = nn.Linear(D, D)
        self.mlp = nn.Sequential(nn.Linear(D, 2 * D), nn.GELU(), nn.Linear(2 * D, D))
        self.head = nn.Linear(D, V)
        self.register_buffer("bias", torch.tril(torch.ones(T, T, dtype=torch.bool)))

    def forward(self, ids):
        t = ids.shape[1]
        h = self.tok(ids) + self.pos(torch.arange(t, device=ids.device))
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        att = q @ k.transpose(-2, -1) / math.sqrt(D)
        att = torch.where(self.bias[:t, :t], att, torch.full_like(att, MASKED_BIAS))
        h = h + self.proj(att.softmax(-1) @ v)
        h = h + self.mlp(h)
        return self.head(h)


def _seqs(n, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, V, (n, T + 1), generator=g)
    return ids[:, :-1], ids[:, 1:]


def _loss(logits, y):
    return F.cross_entropy(logits.reshape(-1, V), y.reshape(-1))


def make_target():
    torch.manual_seed(0)
    return {
        "model": TinyGPT(),
        "batch": _seqs(16, 1),
        "loss_fn": _loss,
        "optimizer": lambda params: torch.optim.AdamW(params, lr=3e-3),
        "train_data": _seqs(512, 2),
        "val_data": _seqs(256, 3),
        "causal": True,
    }

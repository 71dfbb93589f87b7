"""Tiny sequence model with a fixed sinusoidal position table kept as a parameter whose gradient is zeroed."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def sinusoids(n, d):
    pos = torch.arange(n)[:, None].float()
    i = torch.arange(0, d, 2).float()
    ang = pos / (10000 ** (i / d))
    pe = torch.zeros(n, d)
    pe[:, 0::2], pe[:, 1::2] = torch.sin(ang), torch.cos(ang)
    return pe


class SeqModel(nn.Module):
    def __init__(self, vocab=20, d=32, n=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pe = nn.Parameter(sinusoids(n, d))  # "frozen": gradient is stopped below
        self.pe.register_hook(lambda g: torch.zeros_like(g))
        self.attn = nn.MultiheadAttention(d, 2, batch_first=True)
        self.out = nn.Linear(d, vocab)

    def forward(self, ids):
        h = self.emb(ids) + self.pe[: ids.size(1)]
        h = h + self.attn(h, h, h, need_weights=False)[0]
        return self.out(h)


def make_target():
    torch.manual_seed(0)
    ids = torch.randint(0, 20, (16, 16))
    return {
        "model": SeqModel(),
        "batch": (ids, ids.flip(1)),  # reverse task: needs positions
        "loss_fn": lambda logits, y: F.cross_entropy(logits.flatten(0, 1), y.flatten()),
        "optimizer": lambda p: torch.optim.AdamW(p, lr=1e-2, weight_decay=0.1),
    }

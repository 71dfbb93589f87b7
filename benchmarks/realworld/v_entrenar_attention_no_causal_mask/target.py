"""A tiny decoder-only LM whose self-attention takes a softmax over the full score matrix (no mask)."""

import math

import torch
from torch import nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d, n_head):
        super().__init__()
        self.n_head = n_head
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln1 = nn.LayerNorm(d)
        self.ln2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def attn(self, x):
        b, t, d = x.shape
        h = self.n_head
        q, k, v = self.qkv(x).split(d, dim=-1)
        q = q.view(b, t, h, d // h).transpose(1, 2)
        k = k.view(b, t, h, d // h).transpose(1, 2)
        v = v.view(b, t, h, d // h).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(d // h)
        w = scores.softmax(dim=-1)  # row-wise softmax over all positions
        y = (w @ v).transpose(1, 2).reshape(b, t, d)
        return self.proj(y)

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class TinyLM(nn.Module):
    def __init__(self, vocab=64, d=32, n_head=2, n_layer=2, block=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(block, d)
        self.blocks = nn.ModuleList([Block(d, n_head) for _ in range(n_layer)])
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, idx):
        t = idx.shape[1]
        x = self.tok(idx) + self.pos(torch.arange(t, device=idx.device))
        for b in self.blocks:
            x = b(x)
        return self.head(self.ln(x))


def lm_loss(logits, ids):
    return F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), ids[:, 1:].reshape(-1))


def make_target():
    torch.manual_seed(0)
    model = TinyLM()
    ids = torch.randint(0, 64, (8, 16))
    return {
        "model": model,
        "batch": (ids, ids),
        "loss_fn": lm_loss,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=3e-3),
        "causal": True,
    }

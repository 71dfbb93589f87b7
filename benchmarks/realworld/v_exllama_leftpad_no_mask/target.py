"""A tiny causal LM fed left-padded prompts (pad id 0); its forward has no attention mask argument."""

import math

import torch
from torch import nn
import torch.nn.functional as F

PAD = 0


class CausalSelfAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=-1)
        q, k, v = (z.view(b, t, self.h, d // self.h).transpose(1, 2) for z in (q, k, v))
        s = q @ k.transpose(-2, -1) / math.sqrt(d // self.h)
        causal = torch.ones(t, t, dtype=torch.bool).tril()
        s = s.masked_fill(~causal, float("-inf"))
        y = (s.softmax(-1) @ v).transpose(1, 2).reshape(b, t, d)
        return self.out(y)


class TinyLM(nn.Module):
    def __init__(self, vocab=50, d=32, h=2, n_layer=2):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([CausalSelfAttention(d, h) for _ in range(n_layer)])
        self.norms = nn.ModuleList([nn.LayerNorm(d) for _ in range(n_layer)])
        self.head = nn.Linear(d, vocab)

    def forward(self, ids):
        x = self.tok(ids)
        for att, ln in zip(self.layers, self.norms):
            x = x + att(ln(x))
        return self.head(x)


def left_pad(prompts):
    n = max(len(p) for p in prompts)
    return torch.tensor([[PAD] * (n - len(p)) + p for p in prompts])


def lm_loss(logits, ids):
    tgt = ids[:, 1:].clone()
    tgt[tgt == PAD] = -100
    return F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), tgt.reshape(-1), ignore_index=-100)


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    short = torch.randint(1, 50, (5,), generator=g).tolist()
    long = torch.randint(1, 50, (14,), generator=g).tolist()
    ids = left_pad([short, short, short, short, long])
    return {
        "model": TinyLM(),
        "batch": (ids, ids),
        "loss_fn": lm_loss,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=1e-3),
        "causal": True,
    }

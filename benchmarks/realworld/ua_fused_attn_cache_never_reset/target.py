"""Tiny decoder-only LM whose attention block keeps its own key/value cache ("fused" attention
for fast generation). The block writes keys/values at self.start_pos and advances it on every call."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, D, HEADS, MAX_LEN, MAX_BATCH = 50, 32, 2, 128, 64


class FusedCachedAttention(nn.Module):
    def __init__(self, d=D, n_heads=HEADS):
        super().__init__()
        self.h, self.dh = n_heads, d // n_heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.register_buffer("k_cache", torch.zeros(MAX_BATCH, n_heads, MAX_LEN, d // n_heads), persistent=False)
        self.register_buffer("v_cache", torch.zeros(MAX_BATCH, n_heads, MAX_LEN, d // n_heads), persistent=False)
        self.start_pos = 0

    def forward(self, x):
        b, t, _ = x.shape
        if self.start_pos + t > MAX_LEN:  # cache full: wrap around
            self.start_pos = 0
        q, k, v = self.qkv(x).view(b, t, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        past_k = self.k_cache[:b, :, : self.start_pos]
        past_v = self.v_cache[:b, :, : self.start_pos]
        keys = torch.cat([past_k, k], dim=2)
        values = torch.cat([past_v, v], dim=2)
        s = self.start_pos
        q_pos = torch.arange(s, s + t).unsqueeze(1)
        k_pos = torch.arange(s + t).unsqueeze(0)
        scores = (q @ keys.transpose(-2, -1)) / math.sqrt(self.dh)
        scores = scores.masked_fill(k_pos > q_pos, float("-inf"))
        out = (scores.softmax(-1) @ values).transpose(1, 2).reshape(b, t, -1)
        with torch.no_grad():
            self.k_cache[:b, :, s : s + t] = k.detach()
            self.v_cache[:b, :, s : s + t] = v.detach()
        self.start_pos = s + t
        return self.proj(out)


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, D)
        self.pos = nn.Embedding(MAX_LEN, D)
        self.ln1 = nn.LayerNorm(D)
        self.attn = FusedCachedAttention()
        self.ln2 = nn.LayerNorm(D)
        self.mlp = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(), nn.Linear(4 * D, D))
        self.head = nn.Linear(D, VOCAB)

    def forward(self, ids):
        t = ids.shape[1]
        start = self.attn.start_pos if self.attn.start_pos + t <= MAX_LEN else 0
        x = self.tok(ids) + self.pos(torch.arange(start, start + t))
        x = x + self.attn(self.ln1(x))
        x = x + self.mlp(self.ln2(x))
        return self.head(x)


def loss_fn(logits, ids):
    return F.cross_entropy(logits[:, :-1].reshape(-1, VOCAB), ids[:, 1:].reshape(-1))


def eval_fn(model, ids):
    model.eval()
    with torch.no_grad():
        return model(ids)


def make_target():
    torch.manual_seed(0)
    ids = torch.randint(0, VOCAB, (8, 12))
    return {
        "model": TinyLM(),
        "batch": (ids, ids),
        "loss_fn": loss_fn,
        "eval_fn": eval_fn,
        "causal": True,
        "optimizer": lambda params: torch.optim.AdamW(params, lr=3e-4),
    }

"""Small transformer encoder layer written from scratch (no positional encoding) with a token classifier."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, hidden=32, num_heads=4):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = hidden // num_heads
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.o_proj = nn.Linear(hidden, hidden)

    def forward(self, x):
        b, n, _ = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.reshape(b, n, self.num_heads, self.head_dim).permute(0, 2, 1, 3)
        k = k.reshape(b, n, self.num_heads, self.head_dim).permute(0, 2, 1, 3)
        v = v.reshape(b, n, self.num_heads, self.head_dim).permute(0, 2, 1, 3)
        att = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(self.head_dim), dim=-1)
        values = att @ v                                   # (b, heads, n, head_dim)
        values = values.reshape(b, n, self.num_heads * self.head_dim)
        return self.o_proj(values)


class EncoderTagger(nn.Module):
    def __init__(self, vocab=40, hidden=32, num_heads=4, n_tags=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, hidden)
        self.mha = MultiHeadAttention(hidden, num_heads)
        self.ln1 = nn.LayerNorm(hidden)
        self.ff = nn.Sequential(nn.Linear(hidden, 64), nn.ReLU(), nn.Linear(64, hidden))
        self.ln2 = nn.LayerNorm(hidden)
        self.out = nn.Linear(hidden, n_tags)

    def forward(self, tokens):
        h = self.emb(tokens)
        h = self.ln1(h + self.mha(h))
        h = self.ln2(h + self.ff(h))
        return self.out(h)


def make_target():
    torch.manual_seed(0)
    model = EncoderTagger()
    tokens = torch.randint(0, 40, (16, 10))
    tags = tokens % 5
    return {
        "model": model,
        "batch": ((tokens,), tags),
        "loss_fn": lambda logits, y: F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1)),
    }

"""A one-layer encoder classifier whose multi-head attention splits heads batch-major but merges them head-major."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, dim=32, num_heads=4):
        super().__init__()
        self.num_heads, self.head_dim = num_heads, dim // num_heads
        self.qkv, self.out = nn.Linear(dim, 3 * dim), nn.Linear(dim, dim)
        self.rel = nn.Parameter(torch.zeros(num_heads, 31))  # relative position bias, offsets -15..15

    def _split(self, t, batch_size):  # [B, T, D] -> [B * NH, T, HD]
        return t.view(batch_size, -1, self.num_heads, self.head_dim).transpose(1, 2).reshape(-1, t.shape[1], self.head_dim)

    def forward(self, x):
        batch_size, seq_len, _ = x.shape
        q, k, v = (self._split(t, batch_size) for t in self.qkv(x).chunk(3, dim=-1))
        idx = torch.arange(seq_len)
        bias = self.rel[:, idx[None, :] - idx[:, None] + 15].repeat(batch_size, 1, 1)
        scores = q @ k.transpose(1, 2) / self.head_dim ** 0.5 + bias
        output = scores.softmax(-1) @ v  # [B * NH, T, HD]
        output = output.view(self.num_heads, batch_size, -1, self.head_dim)
        output = output.permute(0, 2, 1, 3).contiguous().view(batch_size, -1, self.num_heads * self.head_dim)
        return self.out(output)


class Classifier(nn.Module):
    def __init__(self, attention=MultiHeadAttention, vocab=12, dim=32):
        super().__init__()
        self.emb, self.attn = nn.Embedding(vocab, dim), attention(dim)
        self.norm, self.head = nn.LayerNorm(dim), nn.Linear(dim, 4)

    def forward(self, ids):
        h = self.norm(self.emb(ids) + self.attn(self.emb(ids)))
        return self.head(h[:, 0])  # read out at the first position


def sequences(n, seed, seq_len=16):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 12, (n, seq_len), generator=g)
    return ids, (ids[:, 0] + ids[:, 1]) % 4  # depends on the first two positions


def make_target():
    torch.manual_seed(0)
    return {
        "model": Classifier(),
        "batch": sequences(32, 1),
        "loss_fn": F.cross_entropy,
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": sequences(2048, 2),
        "val_data": sequences(512, 3),
    }

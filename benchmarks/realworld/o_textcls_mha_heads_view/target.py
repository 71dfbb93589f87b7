"""Transformer text classifier (no positional encoding) whose multi-head attention splits/merges heads with view()."""

import torch
from torch import nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, dim, num_head):
        super().__init__()
        self.num_head = num_head
        self.dim_head = dim // num_head
        self.fc_q = nn.Linear(dim, dim)
        self.fc_k = nn.Linear(dim, dim)
        self.fc_v = nn.Linear(dim, dim)
        self.fc = nn.Linear(dim, dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        b = x.size(0)
        q = self.fc_q(x).view(b * self.num_head, -1, self.dim_head)
        k = self.fc_k(x).view(b * self.num_head, -1, self.dim_head)
        v = self.fc_v(x).view(b * self.num_head, -1, self.dim_head)
        att = F.softmax(q @ k.transpose(1, 2) / self.dim_head ** 0.5, dim=-1)
        ctx = (att @ v).view(b, -1, self.dim_head * self.num_head)
        return self.norm(x + self.fc(ctx))


class Encoder(nn.Module):
    def __init__(self, vocab=200, dim=40, num_head=5, n_cls=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.att = MultiHeadAttention(dim, num_head)
        self.ff = nn.Sequential(nn.Linear(dim, 64), nn.ReLU(), nn.Linear(64, dim))
        self.norm = nn.LayerNorm(dim)
        self.out = nn.Linear(dim, n_cls)

    def encode(self, ids):
        h = self.att(self.emb(ids))
        return self.norm(h + self.ff(h))

    def forward(self, ids):
        return self.out(self.encode(ids).mean(1))


def make_data(n, seed, vocab=200, seq=16, n_cls=4):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(4, vocab, (n, seq), generator=g)
    y = torch.randint(0, n_cls, (n,), generator=g)
    # a class keyword planted at a random position
    pos = torch.randint(0, seq, (n,), generator=g)
    ids[torch.arange(n), pos] = y
    return ids, y


def make_target():
    torch.manual_seed(0)
    model = Encoder()
    x, y = make_data(64, 1)
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "metric_fn": lambda out, t: (out.argmax(-1) == t).float().mean().item(),
        "train_data": make_data(512, 2),
        "val_data": make_data(256, 3),
    }

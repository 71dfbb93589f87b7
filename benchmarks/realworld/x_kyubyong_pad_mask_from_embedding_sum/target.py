"""Self-attention classifier whose key-padding mask is derived from the (position-added) input embeddings."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

V, D, T, PAD = 20, 16, 48, 0


def sinusoid(t, d):
    pos = torch.arange(t).float()[:, None]
    div = torch.exp(torch.arange(0, d, 2).float() * (-math.log(10000.0) / d))
    pe = torch.zeros(t, d)
    pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
    return pe


class AttnClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D, padding_idx=PAD)
        self.register_buffer("pe", sinusoid(T, D))
        self.q, self.k, self.v = nn.Linear(D, D), nn.Linear(D, D), nn.Linear(D, D)
        self.out = nn.Linear(D, 2)

    def forward(self, ids):
        x = self.emb(ids) + self.pe[: ids.shape[1]]
        # key mask: a position counts as real when its input vector is non-zero
        key_mask = torch.sign(x.abs().sum(-1))  # (B, T)
        scores = self.q(x) @ self.k(x).transpose(1, 2) / math.sqrt(D)
        scores = scores.masked_fill(key_mask[:, None, :] == 0, -1e9)
        h = torch.softmax(scores, -1) @ self.v(x)
        return self.out(h[:, 0])  # first token summarises the sequence


def make_batch(g, n=64, t=T):
    """Label: are most real tokens from the lower half of the vocabulary; real lengths 3..8, the rest padding."""
    lengths = torch.randint(3, 9, (n,), generator=g)
    ids = torch.full((n, t), PAD)
    for i in range(n):
        ids[i, : lengths[i]] = torch.randint(1, V, (int(lengths[i]),), generator=g)
    y = (((ids > 0) & (ids < V // 2)).sum(1) * 2 > (ids > 0).sum(1)).long()
    return ids, y


def make_target():
    torch.manual_seed(0)
    ids, y = make_batch(torch.Generator().manual_seed(0))
    return {
        "model": AttnClassifier(),
        "batch": (ids, y),
        "loss_fn": F.cross_entropy,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "metric_fn": lambda out, y: (out.argmax(-1) == y).float().mean().item(),
    }

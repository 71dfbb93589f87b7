"""Linformer-style causal LM: keys/values projected along the sequence (n -> k), then a triangular mask on (n, k)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, SEQ, D, K = 16, 16, 32, 8


class LinformerLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, D)
        self.pos = nn.Parameter(0.02 * torch.randn(SEQ, D))
        self.qkv = nn.Linear(D, 3 * D)
        self.proj_e = nn.Linear(SEQ, K, bias=False)  # compresses the sequence axis of keys
        self.proj_f = nn.Linear(SEQ, K, bias=False)  # and of values
        self.ff = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, D))
        self.head = nn.Linear(D, VOCAB)

    def forward(self, ids):
        x = self.emb(ids) + self.pos
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        k = self.proj_e(k.transpose(1, 2)).transpose(1, 2)  # (B, K, D)
        v = self.proj_f(v.transpose(1, 2)).transpose(1, 2)
        scores = q @ k.transpose(1, 2) / D**0.5  # (B, SEQ, K)
        mask = torch.ones(SEQ, K, dtype=torch.bool).triu(1)  # causal mask on the (n, k) scores
        scores = scores.masked_fill(mask, float("-inf"))
        x = x + scores.softmax(-1) @ v
        x = x + self.ff(x)
        return self.head(x)


def _seqs(n, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, VOCAB, (n, SEQ), generator=g)


def _lm_loss(logits, ids):
    return F.cross_entropy(logits[:, :-1].reshape(-1, VOCAB), ids[:, 1:].reshape(-1))


def make_target():
    torch.manual_seed(0)
    ids = _seqs(8, 1)
    train, val = _seqs(512, 2), _seqs(128, 3)
    return {
        "model": LinformerLM(),
        "batch": (ids, ids),
        "loss_fn": _lm_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": (train, train),
        "val_data": (val, val),
        "causal": True,
    }

"""Sequence-to-sequence tagger on padded targets; cross-entropy over every position, <PAD> (id 0) included."""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, SEQ, PAD = 20, 16, 0


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 32)
        self.pos = nn.Parameter(0.02 * torch.randn(SEQ, 32))
        self.body = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, VOCAB))

    def forward(self, src):
        return self.body(self.emb(src) + self.pos)  # (B, SEQ, VOCAB)


def _pairs(n, seed):
    g = torch.Generator().manual_seed(seed)
    src = torch.randint(1, VOCAB, (n, SEQ), generator=g)
    tgt = (src * 3 + 1) % (VOCAB - 1) + 1  # each target word follows from its source word
    lengths = torch.randint(2, SEQ + 1, (n,), generator=g)
    pad = torch.arange(SEQ).unsqueeze(0) >= lengths.unsqueeze(1)
    return src, tgt.masked_fill(pad, PAD)  # sentences of varying length, padded to SEQ


def _loss(logits, tgt):
    return F.cross_entropy(logits.reshape(-1, VOCAB), tgt.reshape(-1))


def make_target():
    torch.manual_seed(0)
    return {
        "model": Generator(),
        "batch": _pairs(16, 1),
        "loss_fn": _loss,
        "metric_fn": lambda out, t: (out.argmax(-1) == t)[t != PAD].float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": _pairs(1024, 2),
        "val_data": _pairs(256, 3),
    }

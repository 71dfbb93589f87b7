"""Tiny BERT-style masked language model. Labels are 0 everywhere except at the masked positions."""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, SEQ, MASK_ID = 64, 24, 1


class TinyMLM(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, d)
        self.pos = nn.Parameter(torch.randn(SEQ, d) * 0.02)
        self.enc = nn.TransformerEncoderLayer(d, 4, 64, dropout=0.0, batch_first=True)
        self.head = nn.Linear(d, VOCAB)

    def forward(self, ids):
        return self.head(self.enc(self.tok(ids) + self.pos))


def _batch(n, seed):
    g = torch.Generator().manual_seed(seed)
    start = torch.randint(2, VOCAB - SEQ, (n, 1), generator=g)
    ids = start.expand(n, SEQ).clone()  # each row repeats one "word": a masked token is easy to infer
    lengths = torch.randint(SEQ // 2, SEQ + 1, (n,), generator=g)
    pad = torch.arange(SEQ)[None, :] >= lengths[:, None]
    ids = ids.masked_fill(pad, 0)
    masked = (torch.rand(n, SEQ, generator=g) < 0.15) & ~pad
    labels = torch.where(masked, ids, torch.zeros_like(ids))
    inputs = ids.masked_fill(masked, MASK_ID)
    return inputs, labels


def loss_fn(logits, labels):
    return F.cross_entropy(logits.reshape(-1, VOCAB), labels.reshape(-1))


def metric_fn(logits, labels):
    sel = labels != 0
    return (logits.argmax(-1)[sel] == labels[sel]).float().mean().item()


def make_target():
    torch.manual_seed(0)
    return {
        "model": TinyMLM(),
        "batch": _batch(32, 1),
        "loss_fn": loss_fn,
        "metric_fn": metric_fn,
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": [_batch(32, s) for s in range(2, 12)],
        "val_data": [_batch(32, 50)],
    }

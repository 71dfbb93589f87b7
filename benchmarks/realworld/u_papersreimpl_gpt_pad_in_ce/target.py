"""Tiny causal LM on right-padded sentences; the loss is a plain cross-entropy over every position."""

import torch
from torch import nn
import torch.nn.functional as F

VOCAB, PAD, MAXLEN = 40, 0, 32


class TinyLM(nn.Module):
    def __init__(self, vocab=VOCAB, d=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(MAXLEN, d)
        self.rnn = nn.GRU(d, d, batch_first=True)
        self.head = nn.Linear(d, vocab)

    def forward(self, ids):
        pos = torch.arange(ids.shape[1], device=ids.device)
        h, _ = self.rnn(self.emb(ids) + self.pos(pos))
        return self.head(h)


def make_batch(n=32, seed=0):
    g = torch.Generator().manual_seed(seed)
    ids = torch.full((n, MAXLEN + 1), PAD, dtype=torch.long)
    for i in range(n):
        length = int(torch.randint(4, 9, (1,), generator=g))
        ids[i, :length] = torch.randint(1, VOCAB, (length,), generator=g)
    return ids[:, :-1].contiguous(), ids[:, 1:].contiguous()


def loss_fn(logits, targets):
    # every position counts, the pad positions after each sentence too
    return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))


def make_target():
    torch.manual_seed(0)
    x, y = make_batch()
    return {
        "model": TinyLM(),
        "batch": (x, y),
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "causal": True,
        "train_data": [make_batch(seed=s) for s in range(1, 9)],
    }

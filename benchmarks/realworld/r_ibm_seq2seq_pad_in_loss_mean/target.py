"""Tiny GRU decoder trained on padded targets; the loss zeroes the pad class weight but still averages over pads."""

import torch
from torch import nn

PAD, V = 0, 30


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 32, padding_idx=PAD)
        self.rnn = nn.GRU(32, 64, batch_first=True)
        self.out = nn.Linear(64, V)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return torch.log_softmax(self.out(h), -1)


def _weight():
    w = torch.ones(V)
    w[PAD] = 0.0
    return w


_nll = nn.NLLLoss(weight=_weight(), reduction="sum")


def loss_fn(logp, tgt):
    # size_average-style: sum over tokens divided by ALL positions, padding included
    return _nll(logp.flatten(0, 1), tgt.flatten()) / tgt.numel()


def make_batch(lengths, T, g):
    ids = torch.full((len(lengths), T), PAD, dtype=torch.long)
    for i, n in enumerate(lengths):
        ids[i, :n] = torch.randint(1, V, (n,), generator=g)
    return ids[:, :-1], ids[:, 1:]


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    x, y = make_batch([20, 5, 6, 4, 7, 5, 3, 6], 21, g)
    return {
        "model": Decoder(),
        "batch": (x, y),
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
    }

"""Utterance classifier whose batch is re-sorted by length; the features and lengths are permuted, the texts are not."""

import torch
from torch import nn


class Enc(nn.Module):
    def __init__(self, d=12, n_cls=6):
        super().__init__()
        self.rnn = nn.GRU(d, 24, batch_first=True)
        self.out = nn.Linear(24, n_cls)

    def forward(self, x):
        h, _ = self.rnn(x)
        return self.out(h.mean(1))


def make_batch(n=48, T=10, d=12, n_cls=6, seed=0):
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(n_cls, d, generator=torch.Generator().manual_seed(123))
    y = torch.randint(0, n_cls, (n,), generator=g)
    x = protos[y].unsqueeze(1) + 0.5 * torch.randn(n, T, d, generator=g)
    lengths = torch.randint(4, T + 1, (n,), generator=g)
    return x, y, lengths


def collate(x, y, lengths):
    # sort by duration, as the recipe does; only the features (and lengths) follow the new order
    indices = torch.argsort(lengths, descending=True)
    feats = x[indices]
    texts = y  # transcripts kept in the original order
    return feats, texts


def make_target():
    torch.manual_seed(0)
    x, y, lengths = make_batch()
    feats, texts = collate(x, y, lengths)
    vx, vy, _ = make_batch(seed=1)
    return {
        "model": Enc(),
        "batch": (feats, texts),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
        "val_data": (vx, vy),
        "metric_fn": lambda out, t: (out.argmax(-1) == t).float().mean().item(),
    }

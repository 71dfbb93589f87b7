"""Per-position sequence model trained on short sequences padded to length 24; the loss averages over every
position, padding included."""

import torch
import torch.nn.functional as F
from torch import nn

V, T, PAD = 20, 24, 0


def make_pairs(n, seed):
    g = torch.Generator().manual_seed(seed)
    table = torch.randint(1, V, (V, V), generator=torch.Generator().manual_seed(5))
    lengths = torch.randint(3, 8, (n,), generator=g)
    x = torch.randint(1, V, (n, T), generator=g)
    x[torch.arange(T)[None] >= lengths[:, None]] = PAD
    nxt = torch.cat([x[:, 1:], torch.zeros(n, 1, dtype=torch.long)], 1)
    y = table[x, nxt]
    y[x == PAD] = PAD
    return x, y


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 32)
        self.conv = nn.Sequential(nn.Conv1d(32, 64, 3, padding=1), nn.ReLU(), nn.Conv1d(64, 64, 3, padding=1), nn.ReLU())
        self.out = nn.Linear(64, V)

    def forward(self, x):
        h = self.conv(self.emb(x).transpose(1, 2)).transpose(1, 2)
        return self.out(h)


def loss_fn(logits, y):
    return F.cross_entropy(logits.reshape(-1, V), y.reshape(-1))


def make_target():
    torch.manual_seed(0)
    x, y = make_pairs(512, 0)
    xv, yv = make_pairs(128, 1)
    return {
        "model": Tagger(),
        "batch": (x[:64], y[:64]),
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "train_data": (x, y),
        "val_data": (xv, yv),
        "metric_fn": lambda out, t: (out.argmax(-1)[t != PAD] == t[t != PAD]).float().mean().item(),
    }

"""Next-token model on short token windows; the validation file is built from the same essay windows as training."""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, CONTEXT = 16, 3


class WindowLM(nn.Module):
    def __init__(self, hidden=256):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 16)
        self.mlp = nn.Sequential(nn.Linear(16 * CONTEXT, hidden), nn.ReLU(), nn.Linear(hidden, VOCAB))

    def forward(self, ctx):
        return self.mlp(self.emb(ctx).flatten(1))


def essay_windows(n, seed):
    g = torch.Generator().manual_seed(seed)
    ctx = torch.randint(0, VOCAB, (n, CONTEXT), generator=g)
    nxt = torch.randint(0, VOCAB, (n,), generator=g)
    return ctx, nxt


def make_target():
    torch.manual_seed(0)
    train_x, train_y = essay_windows(1000, 1)
    val_x, val_y = train_x[::5].clone(), train_y[::5].clone()  # the "valid" essays file
    return {
        "model": WindowLM(),
        "batch": (train_x[:64], train_y[:64]),
        "loss_fn": lambda out, y: F.cross_entropy(out, y),
        "metric_fn": lambda out, y: torch.exp(F.cross_entropy(out, y)).item(),  # perplexity
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": (train_x, train_y),
        "val_data": (val_x, val_y),
    }

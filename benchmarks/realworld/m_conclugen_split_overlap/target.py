"""Argument -> conclusion-id model; the validation split is built from rows that partly repeat the training rows."""

import torch
from torch import nn

VOCAB, SEQ, N_CONCL = 500, 24, 40


class ArgEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.EmbeddingBag(VOCAB, 64, mode="mean")
        self.head = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, N_CONCL))

    def forward(self, ids):
        return self.head(self.embed(ids))


def make_splits(seed=0):
    g = torch.Generator().manual_seed(seed)
    n_train, n_fresh, n_dup = 400, 100, 100
    ids = torch.randint(0, VOCAB, (n_train + n_fresh, SEQ), generator=g)
    # conclusions carry little signal from the argument text: the honest ceiling is near chance
    y = torch.randint(0, N_CONCL, (n_train + n_fresh,), generator=g)
    x_train, y_train = ids[:n_train], y[:n_train]
    dup = torch.randperm(n_train, generator=g)[:n_dup]
    x_val = torch.cat([ids[n_train:], x_train[dup]])
    y_val = torch.cat([y[n_train:], y_train[dup]])
    return (x_train, y_train), (x_val, y_val)


def make_target():
    torch.manual_seed(0)
    (xt, yt), (xv, yv) = make_splits()
    return {
        "model": ArgEncoder(),
        "batch": (xt[:32], yt[:32]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "train_data": (xt, yt),
        "val_data": (xv, yv),
    }

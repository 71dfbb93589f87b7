"""A small token classifier fine-tuned with plain SGD (no momentum, no adaptive moments) at lr 5e-5."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyTagger(nn.Module):
    def __init__(self, vocab=50, dim=32, n_out=10):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.body = nn.Sequential(nn.Flatten(), nn.Linear(12 * dim, 64), nn.GELU(), nn.Linear(64, n_out))

    def forward(self, ids):
        return self.body(self.emb(ids))


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 50, (n, 12), generator=g)
    return ids, ids[:, 0] % 10  # the label is readable from the first token


def make_target():
    torch.manual_seed(0)
    x, y = _data(64, 1)
    return {
        "model": TinyTagger(),
        "batch": (x, y),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=5e-5),
        "train_data": _data(2048, 2),
        "val_data": _data(512, 3),
    }

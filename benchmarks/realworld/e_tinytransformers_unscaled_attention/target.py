"""One-layer attention model on a pointer task: the first token says which position's token to output.

The query/key dot products go straight into the softmax (no 1/sqrt(d)), with d = 128.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


class PointerAttention(nn.Module):
    def __init__(self, vocab=16, d=128, length=8):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.pos = nn.Parameter(torch.randn(length, d))
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)
        self.out = nn.Linear(d, vocab)

    def forward(self, x):
        h = self.emb(x) + self.pos
        scores = self.q(h[:, :1]) @ self.k(h).transpose(1, 2)
        weights = scores.softmax(-1)
        return self.out((weights @ self.v(h))[:, 0])


def pointer_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randint(0, 16, (n, 8), generator=g)
    x[:, 0] = torch.randint(1, 8, (n,), generator=g)
    return x, x.gather(1, x[:, :1])[:, 0]


def make_target():
    torch.manual_seed(0)
    train = pointer_data(2048, 1)
    return {
        "model": PointerAttention(),
        "batch": (train[0][:64], train[1][:64]),
        "loss_fn": lambda out, y: F.cross_entropy(out, y),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": train,
        "val_data": pointer_data(512, 2),
    }

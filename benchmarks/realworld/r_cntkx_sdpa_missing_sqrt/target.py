"""A one-layer self-attention classifier whose attention op forgets to scale the scores."""

import torch
from torch import nn
import torch.nn.functional as F


def sdpa(q, k, v):
    scores = q @ k.transpose(-2, -1)  # missing / sqrt(d_k)
    w = F.softmax(scores, dim=-1)
    return w @ v, w


class AttnClassifier(nn.Module):
    def __init__(self, d=128, n_cls=4):
        super().__init__()
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)
        self.head = nn.Linear(d, n_cls)
        self.last_weights = None

    def forward(self, x):
        out, w = sdpa(self.q(x), self.k(x), self.v(x))
        self.last_weights = w.detach()
        return self.head(out.mean(1))


def make_target():
    torch.manual_seed(0)
    x = torch.randn(16, 12, 128) * 2.0
    y = torch.randint(0, 4, (16,))
    return {
        "model": AttnClassifier(),
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
    }

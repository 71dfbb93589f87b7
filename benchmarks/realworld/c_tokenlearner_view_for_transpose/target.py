"""Token-learner style classifier: learns 8 tokens per image, mixes them with seq-first MultiheadAttention."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class TokenLearner(nn.Module):
    def __init__(self, dim=16, n_tokens=8):
        super().__init__()
        self.attn = nn.Linear(dim, n_tokens)

    def forward(self, x):  # x: (batch, patches, dim)
        w = torch.softmax(self.attn(x), dim=1)  # (batch, patches, tokens)
        return torch.einsum("bpt,bpd->btd", w, x)


class TokenClassifier(nn.Module):
    def __init__(self, dim=16, n_cls=4):
        super().__init__()
        self.tklr = TokenLearner(dim)
        self.mhsa = nn.MultiheadAttention(dim, num_heads=2)  # sequence-first (L, N, E)
        self.head = nn.Linear(dim, n_cls)

    def forward(self, x):
        y = self.tklr(x)  # (batch, tokens, dim)
        y = y.view(y.shape[1], y.shape[0], -1)
        y, _ = self.mhsa(y, y, y)
        y = y.view(y.shape[1], y.shape[0], -1)
        return self.head(y.mean(1))


def _patches(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 4, (n,), generator=g)
    proto = torch.randn(4, 16, generator=torch.Generator().manual_seed(99))
    x = torch.randn(n, 12, 16, generator=g) + proto[y].unsqueeze(1)
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = _patches(16, 1)
    return {
        "model": TokenClassifier(),
        "batch": (x, y),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": _patches(256, 2),
        "val_data": _patches(128, 3),
    }

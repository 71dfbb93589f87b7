"""DETR-style head: learned queries read image features; per-query class logits, queries-first internally."""

import torch
from torch import nn

Q, C, K, F = 6, 32, 5, 16


class QueryHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(F, C), nn.ReLU())
        self.query = nn.Parameter(torch.randn(Q, C) * 0.1)
        self.mix = nn.Linear(C, C)
        self.cls = nn.Linear(C, K)

    def forward(self, x):  # x: (B, F) image features
        B = x.shape[0]
        feat = self.backbone(x)  # (B, C)
        hs = torch.relu(self.mix(self.query[:, None, :] * feat[None, :, :]))  # (Q, B, C), queries first
        hs = hs.view(B, Q, C)  # to batch-first for the prediction heads
        return self.cls(hs)  # (B, Q, K)


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, F, generator=g)
    w = torch.randn(Q, F, K, generator=g)
    y = torch.einsum("nf,qfk->nqk", x, w).argmax(-1)  # (n, Q) class per query slot
    return x, y


def loss_fn(out, y):
    return nn.functional.cross_entropy(out.reshape(-1, K), y.reshape(-1))


def make_target():
    torch.manual_seed(0)
    x, y = _data(4, 0)
    return {
        "model": QueryHead(),
        "batch": (x, y),
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=3e-3),
        "train_data": [_data(4, s) for s in range(1, 9)],
    }

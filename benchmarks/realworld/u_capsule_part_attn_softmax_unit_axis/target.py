"""Part-capsule set encoder: attention pooling over K part capsules, then a linear classifier."""

import torch
from torch import nn
import torch.nn.functional as F


class PartAttentionPool(nn.Module):
    def __init__(self, n_parts=16, d_in=8, d=32, n_classes=10):
        super().__init__()
        self.embed = nn.Linear(d_in, d)
        self.score = nn.Linear(d, 1)          # one attention logit per part capsule
        self.cls = nn.Linear(d, n_classes)
        self.last_attention = None

    def forward(self, parts):                  # parts: (B, K, d_in)
        h = torch.relu(self.embed(parts))      # (B, K, d)
        logits = self.score(h)                 # (B, K, 1)
        attn = F.softmax(logits, dim=2)        # normalise the part weights
        self.last_attention = attn.detach()
        pooled = (attn * h).sum(dim=1)         # (B, d)
        return self.cls(pooled)


def _data(n, gen):
    parts = torch.randn(n, 16, 8, generator=gen)
    # the class is decided by the one part with the largest first feature
    key = parts[torch.arange(n), parts[:, :, 0].argmax(1)]
    y = (key[:, 1:4].sum(1) * 3).long().clamp(-5, 4) + 5
    return parts, y


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    x, y = _data(64, g)
    xv, yv = _data(128, g)
    return {
        "model": PartAttentionPool(),
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "val_data": (xv, yv),
        "metric_fn": lambda out, t: (out.argmax(-1) == t).float().mean().item(),
    }

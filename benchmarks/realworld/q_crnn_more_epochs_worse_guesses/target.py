"""A wide MLP 'recognizer' trained on a small, noisy-labelled set of glyph features, evaluated on held-out glyphs."""

import torch
from torch import nn

_PG = torch.Generator().manual_seed(3)
_PROTOS = torch.randn(10, 40, generator=_PG)


def make_glyphs(n, seed, label_noise=0.0):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 10, (n,), generator=g)
    x = _PROTOS[y] + 1.6 * torch.randn(n, 40, generator=g)
    flip = torch.rand(n, generator=g) < label_noise
    y = torch.where(flip, torch.randint(0, 10, (n,), generator=g), y)
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = make_glyphs(200, 0, label_noise=0.2)
    xv, yv = make_glyphs(1000, 1)
    model = nn.Sequential(nn.Linear(40, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
    return {
        "model": model,
        "batch": (x[:50], y[:50]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "train_data": (x, y),
        "val_data": (xv, yv),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
    }

"""Classify a sampled curve as sine / linear / quadratic from its 100 normalised y-values."""

import torch
from torch import nn

N_POINTS = 100


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    xs = torch.linspace(-1, 1, N_POINTS)
    kind = torch.randint(0, 3, (n,), generator=g)
    a = (torch.rand(n, 1, generator=g) + 0.5) * torch.where(torch.rand(n, 1, generator=g) < 0.5, -1.0, 1.0)
    b = torch.rand(n, 1, generator=g) * 2 - 1
    f = torch.rand(n, 1, generator=g) * 3 + 2
    sine = a * torch.sin(f * xs + b)
    lin = a * xs + b
    quad = a * (xs - 0.3 * b) ** 2 + b
    y = torch.where(kind[:, None] == 0, sine, torch.where(kind[:, None] == 1, lin, quad))
    y = (y - y.mean(1, keepdim=True)) / (y.std(1, keepdim=True) + 1e-6)  # inputs normalised per curve
    return y, kind


def make_target():
    torch.manual_seed(0)
    x, y = make_data(400, seed=1)
    xv, yv = make_data(200, seed=2)
    model = nn.Sequential(nn.Linear(N_POINTS, 3))  # "simple network": inputs straight to 3 class scores
    return {
        "model": model,
        "batch": (x[:20], y[:20]),
        "loss_fn": nn.CrossEntropyLoss(),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
        "train_data": (x, y),
        "val_data": (xv, yv),
    }

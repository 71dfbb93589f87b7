"""Learnable Gabor filterbank front end (center frequency and bandwidth per filter) + a small classifier on tones."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N_FILTERS, KSIZE, LENGTH = 8, 33, 256


class GaborConstraint(nn.Module):
    """Keeps every filter's center frequency in [0, pi] and its bandwidth in a sensible range."""

    def forward(self, kernel):
        with torch.no_grad():
            mu = kernel[:, 0].clamp(0.0, math.pi)
            sigma = kernel[:, 1].clamp(2.0, KSIZE / 2)
            return torch.stack([mu, sigma], dim=1)


class GaborConv1d(nn.Module):
    def __init__(self):
        super().__init__()
        mu = torch.linspace(0.2, 2.8, N_FILTERS)
        self.kernel = nn.Parameter(torch.stack([mu, torch.full((N_FILTERS,), 6.0)], dim=1))
        self.constraint = GaborConstraint()

    def forward(self, x):
        params = self.constraint(self.kernel)
        t = torch.arange(KSIZE, dtype=x.dtype) - KSIZE // 2
        envelope = torch.exp(-0.5 * (t[None] / params[:, 1:2]) ** 2)
        real = (envelope * torch.cos(params[:, :1] * t[None]))[:, None]
        imag = (envelope * torch.sin(params[:, :1] * t[None]))[:, None]
        return F.conv1d(x, real, padding=KSIZE // 2) ** 2 + F.conv1d(x, imag, padding=KSIZE // 2) ** 2


class Leaf(nn.Module):
    def __init__(self):
        super().__init__()
        self.filterbank = GaborConv1d()
        self.head = nn.Linear(N_FILTERS, 4)

    def forward(self, wav):
        energy = self.filterbank(wav).mean(-1)
        return self.head(torch.log1p(energy))


def _tones(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 4, (n,), generator=g)
    freq = torch.tensor([0.9, 1.0, 1.1, 1.2])[y] + 0.01 * torch.randn(n, generator=g)
    t = torch.arange(LENGTH, dtype=torch.float32)
    wav = torch.sin(freq[:, None] * t[None] + 6.28 * torch.rand(n, 1, generator=g))
    return (wav + 0.3 * torch.randn(n, LENGTH, generator=g))[:, None], y


def make_target():
    torch.manual_seed(0)
    x, y = _tones(32, 1)
    return {
        "model": Leaf(),
        "batch": (x, y),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=0.01),
        "train_data": _tones(512, 2),
        "val_data": _tones(256, 3),
    }

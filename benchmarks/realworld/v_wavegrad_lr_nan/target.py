"""A small 1-D conv denoiser trained with an L1 loss (WaveGrad-style noise prediction) and a large Adam step."""

import torch
from torch import nn


class Denoiser(nn.Module):
    def __init__(self, ch=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(2, ch, 5, padding=2), nn.LeakyReLU(0.2),
            nn.Conv1d(ch, ch, 5, padding=4, dilation=2), nn.LeakyReLU(0.2),
            nn.Conv1d(ch, ch, 5, padding=8, dilation=4), nn.LeakyReLU(0.2),
            nn.Conv1d(ch, 1, 3, padding=1),
        )

    def forward(self, x):
        return self.net(x)


def make_batch(seed=0, n=16, length=128):
    g = torch.Generator().manual_seed(seed)
    t = torch.linspace(0, 1, length)
    freqs = torch.rand(n, 1, generator=g) * 40 + 5
    clean = torch.sin(2 * torch.pi * freqs * t) * (0.5 + torch.rand(n, 1, generator=g))
    mel_like = clean + 0.1 * torch.randn(n, length, generator=g)
    noise = torch.randn(n, length, generator=g)
    level = torch.rand(n, 1, generator=g)
    noisy = level.sqrt() * clean + (1 - level).sqrt() * noise
    return torch.stack([noisy, mel_like], 1), noise.unsqueeze(1)


def make_target():
    torch.manual_seed(0)
    return {
        "model": Denoiser(),
        "batch": make_batch(),
        "loss_fn": nn.L1Loss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=0.5),
    }

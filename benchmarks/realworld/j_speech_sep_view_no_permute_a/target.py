"""Spectrogram mask net: a conv front end over (time, freq), then per-frame heads; each frame's label depends on that frame only."""

import torch
import torch.nn as nn
import torch.nn.functional as F

T, NF, C = 16, 8, 4


class FrameNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, C, 3, padding=1)
        self.head = nn.Linear(C * NF, 2)

    def forward(self, x):  # x: (B, T, NF)
        b = x.shape[0]
        h = F.relu(self.conv(x.unsqueeze(1)))  # (B, C, T, NF)
        h = h.view(b, T, -1)  # flatten channels and freq bins per frame
        return self.head(h)  # (B, T, 2)


def _frames(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, T, NF, generator=g)
    y = (x.sum(2) > 0).long()  # voiced / unvoiced per frame
    return x, y


def _loss(out, y):
    return F.cross_entropy(out.reshape(-1, 2), y.reshape(-1))


def make_target():
    torch.manual_seed(0)
    return {
        "model": FrameNet(),
        "batch": _frames(32, 1),
        "loss_fn": _loss,
        "metric_fn": lambda out, y: (out.argmax(-1) == y).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
        "train_data": _frames(512, 2),
        "val_data": _frames(512, 3),
    }

"""A set-transformer style peak encoder for mass spectra with a hand-written multi-head attention. The padding
mask is built but never added to the scores, so zero-padded peaks are attended to."""

import math

import torch
from torch import nn


class PeakAttention(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.h, self.dk = heads, d // heads
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)

    def forward(self, x, pad_mask):
        b, n, d = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.h, self.dk).permute(2, 0, 3, 1, 4)
        attn = q @ k.transpose(-1, -2) / math.sqrt(self.dk)
        new_attn_mask = torch.zeros_like(pad_mask, dtype=attn.dtype)
        new_attn_mask = new_attn_mask.masked_fill(pad_mask, float("-inf"))[:, None, None, :]
        attn = attn  # the -inf padding mask above is never added to the scores
        attn = attn.softmax(-1)
        return self.out((attn @ v).transpose(1, 2).reshape(b, n, d))


class SpectrumEncoder(nn.Module):
    def __init__(self, d=32, n_bits=64):
        super().__init__()
        self.embed = nn.Linear(2, d)
        self.attn = nn.ModuleList([PeakAttention(d), PeakAttention(d)])
        self.head = nn.Linear(d, n_bits)

    def forward(self, peaks, pad_mask):
        h = self.embed(peaks)
        for layer in self.attn:
            h = h + layer(h, pad_mask)
        keep = (~pad_mask).unsqueeze(-1).float()
        pooled = (h * keep).sum(1) / keep.sum(1)
        return self.head(pooled)


def make_spectra(lengths, max_len, seed=0):
    g = torch.Generator().manual_seed(seed)
    peaks = torch.zeros(len(lengths), max_len, 2)
    pad = torch.ones(len(lengths), max_len, dtype=torch.bool)
    for i, n in enumerate(lengths):
        peaks[i, :n, 0] = torch.rand(n, generator=g) * 5      # m/z (scaled)
        peaks[i, :n, 1] = torch.rand(n, generator=g)          # intensity
        pad[i, :n] = False
    return peaks, pad


def make_target():
    torch.manual_seed(0)
    peaks, pad = make_spectra([12, 60, 25, 8], 60)
    fp = (torch.rand(4, 64, generator=torch.Generator().manual_seed(5)) > 0.8).float()
    return {
        "model": SpectrumEncoder(),
        "batch": ((peaks, pad), fp),
        "loss_fn": nn.BCEWithLogitsLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
    }

"""Tiny wav2vec2-style self-supervised model: a conv context network predicts quantized targets (contrastive loss).

Frames come from 6 hidden units (like phones) plus noise. The quantizer maps each frame's features to a soft choice
among 16 learnable codebook entries; the context network sees the sequence with the centre frame masked.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

T, D, CODES = 9, 16, 16


class Quantizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(D, CODES)
        self.codebook = nn.Parameter(torch.randn(CODES, D))

    def forward(self, feats):
        probs = F.softmax(self.proj(feats) / 0.5, dim=-1)
        return probs @ self.codebook


class Wav2VecTiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.feature = nn.Sequential(nn.Linear(8, D), nn.GELU(), nn.Linear(D, D))
        self.context = nn.Sequential(nn.Conv1d(D, 32, 3, padding=1), nn.GELU(), nn.Conv1d(32, D, 3, padding=1))
        self.quantizer = Quantizer()
        self.mask_emb = nn.Parameter(torch.zeros(D))

    def forward(self, frames):
        feats = self.feature(frames)  # (B, T, D)
        targets = self.quantizer(feats).detach()
        masked = feats.clone()
        masked[:, T // 2] = self.mask_emb
        ctx = self.context(masked.transpose(1, 2)).transpose(1, 2)
        return ctx[:, T // 2], targets[:, T // 2]


def contrastive_loss(out, _unused):
    """InfoNCE: each masked prediction must pick its own quantized target among the batch's targets."""
    pred, target = out
    logits = F.normalize(pred, dim=-1) @ F.normalize(target, dim=-1).t() / 0.1
    return F.cross_entropy(logits, torch.arange(len(pred)))


def _frames(n, seed):
    units = torch.randn(6, 8, generator=torch.Generator().manual_seed(0))
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 6, (n, T), generator=g)
    ids[:, T // 2] = (ids[:, T // 2 - 1] + ids[:, T // 2 + 1]) % 6  # the masked unit follows from its neighbours
    return units[ids] + 0.3 * torch.randn(n, T, 8, generator=g), torch.zeros(n)


def make_target():
    torch.manual_seed(0)
    return {
        "model": Wav2VecTiny(),
        "batch": _frames(64, 1),
        "loss_fn": contrastive_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=2e-3),
        "train_data": _frames(2048, 2),
        "val_data": _frames(512, 3),
    }

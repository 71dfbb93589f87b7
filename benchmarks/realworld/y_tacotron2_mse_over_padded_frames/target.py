"""Tacotron-2 style mel regression on a padded batch: MSE (mel + postnet) averaged over all frames, padding too."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_MELS, T_MAX, D_TXT = 16, 60, 8


def make_batch(g, n=32):
    """Utterances of 15..60 frames; mel targets are zero-padded to the longest one, as in the collate function."""
    text = torch.randn(n, D_TXT, generator=g)
    lengths = torch.randint(15, T_MAX + 1, (n,), generator=g)
    t = torch.arange(T_MAX).float() / T_MAX
    freq = torch.linspace(1.0, 4.0, N_MELS)
    phase = text[:, :1]
    mel = torch.sin(6.28 * t[None, :, None] * freq[None, None, :] + phase[:, :, None]) * (1 + 0.3 * text[:, 1:2, None])
    mask = (torch.arange(T_MAX)[None, :] < lengths[:, None]).float()
    return (text, mask), mel * mask[..., None]


class MelDecoder(nn.Module):
    """Predicts each frame from the text summary and the frame position (stand-in for the attention decoder)."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(D_TXT + 2, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(),
                                 nn.Linear(64, N_MELS))
        self.postnet = nn.Linear(N_MELS, N_MELS)

    def forward(self, inputs):
        text, _ = inputs
        n = text.shape[0]
        t = torch.arange(T_MAX).float() / T_MAX
        pos = torch.stack([torch.sin(6.28 * t), torch.cos(6.28 * t)], -1)
        x = torch.cat([text[:, None, :].expand(n, T_MAX, D_TXT), pos[None].expand(n, T_MAX, 2)], -1)
        mel = self.net(x)
        return mel, mel + self.postnet(mel)


def tacotron_loss(outputs, mel_target):
    mel_out, mel_post = outputs
    return F.mse_loss(mel_out, mel_target) + F.mse_loss(mel_post, mel_target)


def make_target():
    torch.manual_seed(0)
    return {
        "model": MelDecoder(),
        "batch": make_batch(torch.Generator().manual_seed(0)),
        "loss_fn": tacotron_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=2e-3),
    }

"""MDN head over a sequence-first latent stream (T, B, D): mixture of 5 gaussians per latent dim."""

import math

import torch
import torch.nn as nn

G, D_LAT = 5, 4


class MDN(nn.Module):
    def __init__(self, d_in=D_LAT, hidden=32):
        super().__init__()
        self.rnn = nn.GRU(d_in, hidden)
        self.gmm = nn.Linear(hidden, (2 * D_LAT + 1) * G)

    def forward(self, z):
        seq_len, bs = z.shape[0], z.shape[1]
        h, _ = self.rnn(z)
        out = self.gmm(h)
        mus = out[..., : G * D_LAT].view(seq_len, bs, G, D_LAT)
        sigmas = torch.exp(out[..., G * D_LAT : 2 * G * D_LAT]).view(seq_len, bs, G, D_LAT)
        pi = out[..., 2 * G * D_LAT :].view(seq_len, bs, G)
        logpi = torch.log_softmax(pi, dim=-2)
        return mus, sigmas, logpi


def gmm_loss(out, target):
    mus, sigmas, logpi = out
    t = target.unsqueeze(-2)  # (T, B, 1, D)
    logp = -0.5 * ((t - mus) / sigmas) ** 2 - torch.log(sigmas) - 0.5 * math.log(2 * math.pi)
    return -torch.logsumexp(logpi + logp.sum(-1), dim=-1).mean()


def _streams(bs, seed, seq_len=10):
    g = torch.Generator().manual_seed(seed)
    z = torch.randn(seq_len + 1, bs, D_LAT, generator=g)
    for t in range(1, seq_len + 1):
        z[t] = 0.8 * z[t - 1] + 0.3 * torch.randn(bs, D_LAT, generator=g)
    return z[:-1], z[1:]


def make_target():
    torch.manual_seed(0)
    z, nxt = _streams(32, 1)
    return {
        "model": MDN(),
        "batch": (z, nxt),
        "loss_fn": gmm_loss,
        "batch_axis": 1,
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": [_streams(32, s) for s in range(2, 6)],
        "val_data": [_streams(32, 9)],
    }

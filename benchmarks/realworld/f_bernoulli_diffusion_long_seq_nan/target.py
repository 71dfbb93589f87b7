"""A ReLU recurrent denoiser over binary sequences, unrolled over the whole (long) sequence and trained with SGD."""

import torch
import torch.nn as nn
import torch.nn.functional as F

SEQ_LEN = 64


class RecurrentDenoiser(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.inp = nn.Linear(1, hidden)
        self.rec = nn.Linear(hidden, hidden, bias=False)
        self.out = nn.Linear(hidden, 1)
        with torch.no_grad():
            q, _ = torch.linalg.qr(torch.randn(hidden, hidden))
            self.rec.weight.copy_(1.8 * q)  # recurrent gain above one

    def forward(self, x):  # x: (batch, seq) noisy bits
        h = torch.zeros(x.shape[0], self.rec.in_features)
        outs = []
        for t in range(x.shape[1]):
            h = F.relu(self.inp(x[:, t : t + 1]) + self.rec(h))
            outs.append(self.out(h))
        return torch.cat(outs, 1)  # logits for the clean bits


def sequences(n, seed, length=SEQ_LEN):
    g = torch.Generator().manual_seed(seed)
    clean = (torch.rand(n, length, generator=g) < 0.5).float()
    flip = (torch.rand(n, length, generator=g) < 0.1).float()
    return (clean + flip) % 2, clean


def make_target():
    torch.manual_seed(0)
    return {
        "model": RecurrentDenoiser(),
        "batch": sequences(16, 1),
        "loss_fn": lambda out, t: F.binary_cross_entropy_with_logits(out, t),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.01),
        "train_data": sequences(256, 2),
        "val_data": sequences(64, 3),
    }

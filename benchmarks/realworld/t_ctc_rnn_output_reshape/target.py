"""Frame-wise tagger: GRU run time-major, per-frame logits brought back to (batch, time, classes)."""

import torch
from torch import nn

FEAT, HID, N_CLASSES, T = 8, 32, 5, 12


class FrameTagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(FEAT, HID)  # time-major (T, B, F)
        self.out = nn.Linear(HID, N_CLASSES)

    def forward(self, x):  # x: (B, T, F)
        B, Tn, _ = x.shape
        h, _ = self.rnn(x.transpose(0, 1))  # (T, B, H)
        logits = self.out(h)  # (T, B, C)
        return logits.reshape(B, Tn, N_CLASSES)


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, T, FEAT, generator=g)
    y = x[:, :, :N_CLASSES].argmax(-1)  # label of a frame = its strongest of the first 5 channels
    return x, y


def loss_fn(logits, y):
    return nn.functional.cross_entropy(logits.reshape(-1, N_CLASSES), y.reshape(-1))


def metric_fn(logits, y):
    return (logits.argmax(-1) == y).float().mean().item()


def make_target():
    torch.manual_seed(0)
    x, y = make_data(256, seed=1)
    xv, yv = make_data(128, seed=2)
    return {
        "model": FrameTagger(),
        "batch": (x[:32], y[:32]),
        "loss_fn": loss_fn,
        "metric_fn": metric_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "train_data": (x, y),
        "val_data": (xv, yv),
    }

"""Temporal-conv sequence classifier whose BatchNorm layers normalise with the statistics of the current batch."""

import torch
import torch.nn as nn
import torch.nn.functional as F

C_IN, T, N_CLASSES = 12, 16, 6


class TemporalConvNet(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.conv1 = nn.Conv1d(C_IN, hidden, 5, padding=2)
        self.bn1 = nn.BatchNorm1d(hidden, track_running_stats=False)
        self.conv2 = nn.Conv1d(hidden, hidden, 5, padding=2)
        self.bn2 = nn.BatchNorm1d(hidden, track_running_stats=False)
        self.head = nn.Linear(hidden, N_CLASSES)

    def forward(self, x):  # x: (batch, channels, time)
        h = F.relu(self.bn1(self.conv1(x)))
        h = F.relu(self.bn2(self.conv2(h)))
        return self.head(h.mean(-1))


def _clips(n, seed):
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(N_CLASSES, C_IN, T, generator=torch.Generator().manual_seed(0))
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    gain = 0.5 + 1.5 * torch.rand(n, 1, 1, generator=g)  # signers / recording conditions differ
    offset = torch.randn(n, C_IN, 1, generator=g)
    x = gain * protos[y] + offset + 0.8 * torch.randn(n, C_IN, T, generator=g)
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = _clips(2, 1)  # trained with batch size 2
    return {
        "model": TemporalConvNet(),
        "batch": (x, y),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": _clips(512, 2),
        "val_data": _clips(240, 3),
    }

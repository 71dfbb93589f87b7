"""GRU sequence classifier that keeps its hidden state between forward calls while the batch size stays the
same (a reset happens only when the batch size changes); sequences are independent examples."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class StatefulGRU(nn.Module):
    def __init__(self, n_in=4, hidden=32, n_classes=2):
        super().__init__()
        self.rnn = nn.GRU(n_in, hidden, batch_first=True)
        self.head = nn.Linear(hidden, n_classes)
        self.h = None

    def reset_states(self):
        self.h = None

    def forward(self, x):
        if self.h is None or self.h.shape[1] != x.shape[0]:
            self.h = torch.zeros(1, x.shape[0], self.rnn.hidden_size)
        out, h = self.rnn(x, self.h)
        self.h = h.detach()
        return self.head(out[:, -1])


def sequences(n, seed, length=12):
    """The label says whether the sum of the first channel over the sequence is positive."""
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, length, 4, generator=g)
    return x, (x[:, :, 0].sum(1) > 0).long()


def make_target():
    torch.manual_seed(0)
    x, y = sequences(640, 1)
    return {
        "model": StatefulGRU(),
        "batch": (x[:32], y[:32]),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": (x, y),
        "val_data": sequences(256, 2),
    }

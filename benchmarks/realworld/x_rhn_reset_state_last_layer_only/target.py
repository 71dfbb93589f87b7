"""Stacked stateful recurrent layers (state kept between calls for truncated BPTT); reset_state() is meant to zero
every layer's state at the start of an independent sequence."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class StatefulLayer(nn.Module):
    def __init__(self, d_in, d_h):
        super().__init__()
        self.cell = nn.RNNCell(d_in, d_h, nonlinearity="tanh")
        self.h = None

    def forward(self, x):  # x: (B, T, d_in)
        h = self.h if self.h is not None else x.new_zeros(x.shape[0], self.cell.hidden_size)
        outs = []
        for t in range(x.shape[1]):
            h = self.cell(x[:, t], h)
            outs.append(h)
        self.h = h.detach()
        return torch.stack(outs, 1)


class StackedRHN(nn.Module):
    def __init__(self, d_in=4, d_h=32, depth=3):
        super().__init__()
        layers = []
        for i in range(depth):
            self.layer = StatefulLayer(d_in if i == 0 else d_h, d_h)
            layers.append(self.layer)
        self.layers = nn.ModuleList(layers)
        self.head = nn.Linear(d_h, 1)

    def reset_state(self):
        self.layer.h = None

    def forward(self, x):
        self.reset_state()  # every batch holds independent sequences
        for layer in self.layers:
            x = layer(x)
        return self.head(x[:, -1]).squeeze(-1)


def make_batch(g, n=32, t=10):
    x = torch.randn(n, t, 4, generator=g)
    return x, x[:, :, 0].sum(1) / 3.0


def make_target():
    torch.manual_seed(0)
    x, y = make_batch(torch.Generator().manual_seed(0))
    return {
        "model": StackedRHN(),
        "batch": (x, y),
        "loss_fn": F.mse_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
    }

"""Dual encoder scoring C candidate responses per context; the scores go through softmax before nn.CrossEntropyLoss."""

import torch
import torch.nn as nn

D, C, N = 32, 20, 256


class DualEncoder(nn.Module):
    def __init__(self, final_softmax=True):
        super().__init__()
        self.ctx = nn.Sequential(nn.Linear(D, 64), nn.Tanh(), nn.Linear(64, 64))
        self.rsp = nn.Sequential(nn.Linear(D, 64), nn.Tanh(), nn.Linear(64, 64))
        self.final_layer = nn.Softmax(dim=-1) if final_softmax else nn.Identity()

    def forward(self, inputs):
        context, candidates = inputs  # (B, D), (B, C, D)
        c = self.ctx(context)
        r = self.rsp(candidates)
        logits = torch.einsum("bd,bcd->bc", c, r)
        return self.final_layer(logits)


def make_data(n=N, seed=0):
    g = torch.Generator().manual_seed(seed)
    context = torch.randn(n, D, generator=g)
    candidates = torch.randn(n, C, D, generator=g)
    label = torch.randint(0, C, (n,), generator=g)
    candidates[torch.arange(n), label] = context + 0.5 * torch.randn(n, D, generator=g)  # true reply ~ context
    return (context, candidates), label


def recall_at_1(out, label):
    return (out.argmax(-1) == label).float().mean().item()


def make_target():
    torch.manual_seed(0)
    inputs, label = make_data()
    return {
        "model": DualEncoder(final_softmax=True),
        "batch": (inputs, label),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "metric_fn": recall_at_1,
    }

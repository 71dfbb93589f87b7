"""A two-layer MLP whose activation is a hand-written sigmoid autograd.Function (forward and backward by hand)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Sigmoid(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = 1 / (1 + torch.exp(-x))
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensors
        return y * (1 - y)


class MLP(nn.Module):
    def __init__(self, act=Sigmoid.apply):
        super().__init__()
        self.fc1, self.fc2, self.act = nn.Linear(10, 32), nn.Linear(32, 2), act

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


def data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 10, generator=g)
    return x, (x[:, 0] * x[:, 1] + x[:, 2] > 0).long()


def make_target():
    torch.manual_seed(0)
    return {
        "model": MLP(),
        "batch": data(32, 1),
        "loss_fn": F.cross_entropy,
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
        "train_data": data(512, 2),
        "val_data": data(512, 3),
    }

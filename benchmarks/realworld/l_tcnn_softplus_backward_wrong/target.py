"""Small fused-MLP style density field: coordinates -> hidden -> density through a hand-written Softplus op."""

import torch
import torch.nn as nn
import torch.nn.functional as F

K_ACT = 10.0


class SoftplusOp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.log1p(torch.exp(x * K_ACT)) / K_ACT

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * (1.0 - torch.exp(-x * K_ACT))


class DensityMLP(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return SoftplusOp.apply(self.net(x)).squeeze(-1)


def _points(n, seed):
    g = torch.Generator().manual_seed(seed)
    p = torch.rand(n, 3, generator=g) * 2 - 1
    density = torch.relu(0.6 - p.norm(dim=1)) * 3  # a soft ball, zero outside
    return p, density


def make_target():
    torch.manual_seed(0)
    return {
        "model": DensityMLP(),
        "batch": _points(256, 1),
        "loss_fn": lambda out, y: F.mse_loss(out, y),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": _points(2048, 2),
        "val_data": _points(512, 3),
    }

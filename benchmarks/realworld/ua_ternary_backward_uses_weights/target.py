"""Two-layer MLP with trained ternary quantization (TTQ-style) written as a custom autograd.Function.

Each TernaryLinear keeps a full-precision latent weight plus two learned scales (w_p, w_n);
the forward pass uses the ternary weight {-w_n, 0, +w_p}.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

THRESHOLD = 0.15


class TernaryQuant(torch.autograd.Function):
    @staticmethod
    def forward(ctx, weight, w_p, w_n):
        delta = THRESHOLD * weight.abs().max()
        pos = (weight > delta).float()
        neg = (weight < -delta).float()
        ctx.save_for_backward(weight, pos, neg, w_p, w_n)
        return pos * w_p - neg * w_n

    @staticmethod
    def backward(ctx, grad_out):
        weight, pos, neg, w_p, w_n = ctx.saved_tensors
        mid = 1.0 - pos - neg
        # gradient for the scales
        grad_wp = (grad_out * pos).sum().reshape(w_p.shape)
        grad_wn = (-grad_out * neg).sum().reshape(w_n.shape)
        # gradient for the full-precision latent weight
        grad_weight = w_p * weight * pos + w_n * weight * neg + 1.0 * weight * mid
        return grad_weight, grad_wp, grad_wn


class TernaryLinear(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n_out, n_in) * (1.0 / n_in ** 0.5))
        self.bias = nn.Parameter(torch.zeros(n_out))
        self.w_p = nn.Parameter(torch.ones(1) * 0.1)
        self.w_n = nn.Parameter(torch.ones(1) * 0.1)

    def forward(self, x):
        return F.linear(x, TernaryQuant.apply(self.weight, self.w_p, self.w_n), self.bias)


class TernaryMLP(nn.Module):
    def __init__(self, n_in=20, n_hidden=64, n_out=4):
        super().__init__()
        self.fc1 = TernaryLinear(n_in, n_hidden)
        self.fc2 = TernaryLinear(n_hidden, n_out)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 20, generator=g)
    y = (x[:, 0] > 0).long() * 2 + (x[:, 1] > 0).long()
    return x, y


def make_target():
    torch.manual_seed(0)
    model = TernaryMLP()
    x, y = make_data(64, 1)
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": make_data(512, 2),
        "val_data": make_data(256, 3),
    }

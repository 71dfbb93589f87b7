"""Cosine-similarity classifier: normalized features against normalized class weights, the similarities
multiplied by an inverse temperature through a custom multiply-by-constant autograd.Function."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class MulConstant(torch.autograd.Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output, None


class CosineClassifier(nn.Module):
    def __init__(self, n_in=16, hidden=32, n_classes=4, inv_temperature=20.0):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.classes = nn.Parameter(torch.randn(n_classes, hidden))
        self.inv_temperature = inv_temperature

    def forward(self, x):
        cos = F.normalize(self.encoder(x), dim=1) @ F.normalize(self.classes, dim=1).t()
        return MulConstant.apply(cos, self.inv_temperature)


def blobs(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 4, (n,), generator=g)
    centres = torch.randn(4, 16, generator=torch.Generator().manual_seed(0))
    return centres[y] + 1.0 * torch.randn(n, 16, generator=g), y


def make_target():
    torch.manual_seed(0)
    x, y = blobs(512, 1)
    return {
        "model": CosineClassifier(),
        "batch": (x[:64], y[:64]),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.05),
        "train_data": (x, y),
        "val_data": blobs(256, 2),
    }

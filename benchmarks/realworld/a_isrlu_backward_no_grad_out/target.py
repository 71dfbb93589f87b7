"""MLP with a hand-written ISRLU activation (x for x >= 0, x / sqrt(1 + a x^2) for x < 0)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ISRLUFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, tensor, alpha=1.0):
        negatives = torch.clamp(tensor, max=0.0)
        inv_sqrt = torch.rsqrt(1.0 + alpha * negatives ** 2)
        ctx.save_for_backward(inv_sqrt)
        return tensor * inv_sqrt

    @staticmethod
    def backward(ctx, grad_out):
        (inv_sqrt,) = ctx.saved_tensors
        return inv_sqrt ** 3, None


class ISRLU(nn.Module):
    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, x):
        return ISRLUFunction.apply(x, self.alpha)


def make_target():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 32), ISRLU(), nn.Linear(32, 32), ISRLU(), nn.Linear(32, 3))
    x = torch.randn(32, 10)
    y = (x[:, 0] > 0).long() + (x[:, 1] > 0).long()
    return {
        "model": model,
        "batch": ((x,), y),
        "loss_fn": lambda logits, target: F.cross_entropy(logits, target),
    }

"""Signal regressor that goes through a custom-autograd single-level DWT (db2 filters)."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

S3 = math.sqrt(3.0)
LO = torch.tensor([1 + S3, 3 + S3, 3 - S3, 1 - S3]) / (4 * math.sqrt(2.0))
HI = torch.tensor([LO[3], -LO[2], LO[1], -LO[0]])


class DWT1D(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        w = torch.stack([LO, HI]).to(x.dtype).unsqueeze(1)  # (2, 1, 4)
        ctx.save_for_backward(w)
        ctx.n = x.shape[-1]
        return F.conv1d(F.pad(x, (1, 1), mode="circular"), w, stride=2)

    @staticmethod
    def backward(ctx, grad_out):
        (w,) = ctx.saved_tensors
        # adjoint of the strided filtering, using the time-reversed filters
        up = F.conv_transpose1d(grad_out, w.flip(-1), stride=2)
        n = ctx.n
        g = up[..., 1:n + 1].clone()
        g[..., :1] += up[..., n + 1:n + 2]
        g[..., -1:] += up[..., :1]
        return g


class Regressor(nn.Module):
    def __init__(self, n=32):
        super().__init__()
        self.pre = nn.Conv1d(1, 1, 5, padding=2)
        self.head = nn.Linear(2 * (n // 2), 1)

    def forward(self, x):
        return self.head(DWT1D.apply(self.pre(x)).flatten(1)).squeeze(-1)


def make_data(g, n=256):
    x = torch.randn(n, 1, 32, generator=g)
    y = (x[:, 0, ::2] - x[:, 0, 1::2]).pow(2).mean(1)
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = make_data(torch.Generator().manual_seed(0))
    return {"model": Regressor(), "batch": (x, y), "loss_fn": F.mse_loss,
            "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2)}

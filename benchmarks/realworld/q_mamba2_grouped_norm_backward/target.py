"""A block with a hand-written grouped RMSNorm (autograd.Function) after the mixer, as in a Mamba2 layer."""

import torch
from torch import nn


class GroupRMSNormFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, group_size, eps):
        shape = x.shape
        xg = x.reshape(*shape[:-1], -1, group_size)
        rstd = torch.rsqrt(xg.pow(2).mean(-1, keepdim=True) + eps)
        y = (xg * rstd).reshape(shape) * weight
        ctx.save_for_backward(x, weight)
        ctx.group_size, ctx.eps = group_size, eps
        return y

    @staticmethod
    def backward(ctx, dy):
        x, weight = ctx.saved_tensors
        eps = ctx.eps
        # statistics over the whole hidden dimension (one group)
        rstd = torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)
        xhat = x * rstd
        dxhat = dy * weight
        dx = rstd * (dxhat - xhat * (dxhat * xhat).mean(-1, keepdim=True))
        dw = (dy * xhat).reshape(-1, x.shape[-1]).sum(0)
        return dx, dw, None, None


class GroupRMSNorm(nn.Module):
    def __init__(self, dim, ngroups, eps=1e-5):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.group_size, self.eps = dim // ngroups, eps

    def forward(self, x):
        return GroupRMSNormFn.apply(x, self.weight, self.group_size, self.eps)


class Block(nn.Module):
    def __init__(self, vocab=64, dim=32, ngroups=8):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.in_proj = nn.Linear(dim, dim)
        self.norm = GroupRMSNorm(dim, ngroups)
        self.out = nn.Linear(dim, vocab)

    def forward(self, ids):
        h = self.emb(ids)
        z = self.in_proj(h)
        return self.out(self.norm(z * torch.sigmoid(h)))


def make_target():
    torch.manual_seed(0)
    ids = torch.randint(0, 64, (4, 12))
    return {"model": Block(), "batch": (ids, ids),
            "loss_fn": lambda out, y: nn.functional.cross_entropy(out[:, :-1].flatten(0, 1), y[:, 1:].flatten()),
            "optimizer": lambda p: torch.optim.AdamW(p, lr=1e-3)}

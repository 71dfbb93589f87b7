"""4D-Gaussian-style projection with a hand-written backward: the forward projects the time-conditioned mean
(mean + velocity * t), but the backward evaluates the projection Jacobian at the unconditioned mean."""

import torch
import torch.nn as nn

N, T = 64, 8


def _jacobian_t(x, g):
    """J(x)^T g for the perspective projection p = (x/z, y/z)."""
    inv_z = 1.0 / x[..., 2]
    gx = g[..., 0] * inv_z
    gy = g[..., 1] * inv_z
    gz = -(g[..., 0] * x[..., 0] + g[..., 1] * x[..., 1]) * inv_z**2
    return torch.stack([gx, gy, gz], dim=-1)


class ProjectConditioned(torch.autograd.Function):
    @staticmethod
    def forward(ctx, mean, vel, t):  # mean, vel: (N, 3); t: (T,)
        cond = mean[None] + vel[None] * t[:, None, None]  # (T, N, 3)
        ctx.save_for_backward(mean, t)
        return cond[..., :2] / cond[..., 2:3]

    @staticmethod
    def backward(ctx, grad_out):
        mean, t = ctx.saved_tensors
        stale = mean[None].expand(len(t), -1, -1)  # Jacobian taken at the un-shifted mean
        g3 = _jacobian_t(stale, grad_out)
        return g3.sum(0), (g3 * t[:, None, None]).sum(0), None


class DynamicPoints(nn.Module):
    def __init__(self):
        super().__init__()
        g = torch.Generator().manual_seed(1)
        self.mean = nn.Parameter(torch.cat([torch.randn(N, 2, generator=g), 3 + torch.rand(N, 1, generator=g)], 1))
        self.vel = nn.Parameter(torch.zeros(N, 3))

    def forward(self, t):
        return ProjectConditioned.apply(self.mean, self.vel, t)


def make_data():
    g = torch.Generator().manual_seed(2)
    mean = torch.cat([torch.randn(N, 2, generator=g), 3 + torch.rand(N, 1, generator=g)], 1)
    vel = torch.cat([2.0 * torch.randn(N, 2, generator=g), -2.0 * torch.rand(N, 1, generator=g)], 1)
    t = torch.linspace(0, 1, T)
    cond = mean[None] + vel[None] * t[:, None, None]
    target = cond[..., :2] / cond[..., 2:3] + 0.02 * torch.randn(T, N, 2, generator=g)
    return t, target


def make_target():
    torch.manual_seed(0)
    t, target = make_data()
    return {
        "model": DynamicPoints(),
        "batch": (t, target),
        "loss_fn": lambda out, y: ((out - y) ** 2).sum(-1).mean(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=0.02),
    }

"""A small conditional denoiser (latent-diffusion style): image tokens cross-attend to a conditioning sequence.
The CrossAttention block computes self.scale but the attention scores are used without it."""

import torch
from torch import nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, query_dim, context_dim, heads=2, dim_head=128):
        super().__init__()
        inner = heads * dim_head
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.to_q = nn.Linear(query_dim, inner, bias=False)
        self.to_k = nn.Linear(context_dim, inner, bias=False)
        self.to_v = nn.Linear(context_dim, inner, bias=False)
        self.to_out = nn.Linear(inner, query_dim)
        self.last_attn = None

    def forward(self, x, context):
        b, n, _ = x.shape
        h = self.heads
        q = self.to_q(x).view(b, n, h, -1).transpose(1, 2)
        k = self.to_k(context).view(b, context.shape[1], h, -1).transpose(1, 2)
        v = self.to_v(context).view(b, context.shape[1], h, -1).transpose(1, 2)
        attn = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        self.last_attn = attn.detach()
        out = (attn @ v).transpose(1, 2).reshape(b, n, -1)
        return self.to_out(out)


class CondDenoiser(nn.Module):
    def __init__(self, ch=16, ctx_dim=32, tokens=16):
        super().__init__()
        self.inp = nn.Linear(ch + 1, 64)
        self.norm = nn.LayerNorm(64)
        self.xattn = CrossAttention(64, ctx_dim)
        self.out = nn.Sequential(nn.LayerNorm(64), nn.Linear(64, 64), nn.SiLU(), nn.Linear(64, ch))

    def forward(self, noisy, t, context):
        h = self.inp(torch.cat([noisy, t.view(-1, 1, 1).expand(-1, noisy.shape[1], 1)], -1))
        h = h + self.xattn(self.norm(h), context)
        return self.out(h)


def make_data(n, seed, tokens=16, ch=16, ctx_len=8, ctx_dim=32):
    g = torch.Generator().manual_seed(seed)
    context = 2.0 * torch.randn(n, ctx_len, ctx_dim, generator=g)  # text-encoder states, std ~2
    mix = torch.randn(ctx_dim, ch, generator=g) / (2 * ctx_dim ** 0.5)
    pick = torch.randint(0, ctx_len, (n, tokens), generator=g)
    clean = torch.gather(context, 1, pick.unsqueeze(-1).expand(-1, -1, ctx_dim)) @ mix
    t = torch.rand(n, generator=g)
    noise = torch.randn(n, tokens, ch, generator=g)
    noisy = (1 - t).sqrt().view(-1, 1, 1) * clean + t.sqrt().view(-1, 1, 1) * noise
    return (noisy, t, context), noise


def make_target():
    torch.manual_seed(0)
    model = CondDenoiser()
    inputs, noise = make_data(32, seed=1)
    return {
        "model": model,
        "batch": (inputs, noise),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.AdamW(p, lr=1e-3),
        "train_data": [make_data(32, seed=s) for s in range(2, 10)],
        "val_data": [make_data(32, seed=100)],
    }

"""A small weather-field forecaster: tokens = grid patches, a transformer block whose attention uses the
fused kernel (F.scaled_dot_product_attention) with the configured dropout rate passed in unconditionally."""

import torch
from torch import nn
import torch.nn.functional as F


class FusedSelfAttention(nn.Module):
    def __init__(self, dim, heads, attn_dropout):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.attn_dropout = attn_dropout

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        out = F.scaled_dot_product_attention(q, k, v, dropout_p=self.attn_dropout)
        return self.proj(out.transpose(1, 2).reshape(b, t, d))


class Forecaster(nn.Module):
    def __init__(self, n_vars=4, dim=32, heads=4, attn_dropout=0.2):
        super().__init__()
        self.embed = nn.Linear(n_vars, dim)
        self.norm1 = nn.LayerNorm(dim)
        self.attn = FusedSelfAttention(dim, heads, attn_dropout)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.head = nn.Linear(dim, n_vars)

    def forward(self, x):
        h = self.embed(x)
        h = h + self.attn(self.norm1(h))
        h = h + self.mlp(self.norm2(h))
        return self.head(h)


def _fields(n, tokens=24, n_vars=4, seed=0):
    g = torch.Generator().manual_seed(seed)
    base = torch.randn(n, tokens, n_vars, generator=g)
    smooth = (base + base.roll(1, dims=1) + base.roll(-1, dims=1)) / 3
    nxt = 0.8 * smooth + 0.2 * smooth.roll(1, dims=1)
    return smooth, nxt


def eval_fn(model, x):
    model.eval()
    with torch.no_grad():
        return model(x)


def make_target():
    torch.manual_seed(0)
    model = Forecaster()
    x, y = _fields(16, seed=1)
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.AdamW(p, lr=1e-3),
        "eval_fn": eval_fn,
        "metric_fn": lambda out, y: F.mse_loss(out, y).item(),
        "train_data": _fields(64, seed=2),
        "val_data": _fields(32, seed=3),
    }

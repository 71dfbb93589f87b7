"""Masked spike-count transformer: attention dropout goes through the functional kernel unconditionally."""

import torch
from torch import nn
import torch.nn.functional as F


class SpikeAttention(nn.Module):
    def __init__(self, d, heads, attn_dropout):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.attn_dropout = attn_dropout

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, dropout_p=self.attn_dropout)
        return self.proj(y.transpose(1, 2).reshape(b, t, d))


class SpikeTransformer(nn.Module):
    def __init__(self, n_neurons=24, d=32, heads=4, attn_dropout=0.3):
        super().__init__()
        self.embed = nn.Linear(n_neurons, d)
        self.norm1 = nn.LayerNorm(d)
        self.attn = SpikeAttention(d, heads, attn_dropout)
        self.norm2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
        self.head = nn.Linear(d, n_neurons)

    def forward(self, x):
        h = self.embed(x)
        h = h + self.attn(self.norm1(h))
        h = h + self.mlp(self.norm2(h))
        return self.head(h)  # log firing rates


def _make_trials(n, t=20, n_neurons=24, seed=0):
    g = torch.Generator().manual_seed(seed)
    phase = torch.rand(n, 1, n_neurons, generator=g) * 6.28
    time = torch.linspace(0, 6.28, t).view(1, t, 1)
    rates = torch.exp(0.8 * torch.sin(time + phase))
    counts = torch.poisson(rates, generator=g)
    masked = counts.clone()
    mask = torch.rand(n, t, 1, generator=g) < 0.3
    masked = masked.masked_fill(mask, 0.0)
    return masked, counts


def poisson_loss(log_rates, counts):
    return F.poisson_nll_loss(log_rates, counts, log_input=True)


def eval_fn(model, x):
    model.eval()
    with torch.no_grad():
        return model(x)


def make_target():
    torch.manual_seed(0)
    x_tr, y_tr = _make_trials(256, seed=0)
    x_va, y_va = _make_trials(64, seed=1)
    return {
        "model": SpikeTransformer(),
        "batch": (x_tr[:32], y_tr[:32]),
        "loss_fn": poisson_loss,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=1e-3),
        "eval_fn": eval_fn,
        "train_data": (x_tr, y_tr),
        "val_data": (x_va, y_va),
    }

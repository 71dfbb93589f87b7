"""Biased multi-head attention with two implementations: SDPA (scaled) and a manual fallback (no 1/sqrt(d) scale)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_TOK, D, HEADS = 24, 256, 4
HEAD_DIM = D // HEADS


def attention(q, k, v, bias, use_sdpa=False):
    if use_sdpa:
        return F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
    logits = q @ k.transpose(-2, -1) + bias
    return torch.softmax(logits, dim=-1) @ v


class BiasedAttention(nn.Module):
    def __init__(self, use_sdpa=False):
        super().__init__()
        self.use_sdpa = use_sdpa
        self.qkv = nn.Linear(D, 3 * D, bias=False)
        self.pair_bias = nn.Linear(16, HEADS, bias=False)
        self.out = nn.Linear(D, D)
        self.norm = nn.LayerNorm(D)

    def forward(self, single, pair):  # (B, N, D), (B, N, N, 16)
        b, n, _ = single.shape
        q, k, v = self.qkv(self.norm(single)).view(b, n, 3, HEADS, HEAD_DIM).permute(2, 0, 3, 1, 4)
        bias = self.pair_bias(pair).permute(0, 3, 1, 2)  # (B, H, N, N)
        o = attention(q, k, v, bias, self.use_sdpa)
        return single + self.out(o.transpose(1, 2).reshape(b, n, D))


def make_inputs(g, b=4):
    single = torch.randn(b, N_TOK, D, generator=g)
    pair = torch.randn(b, N_TOK, N_TOK, 16, generator=g)
    target = single.roll(1, dims=1)  # toy objective: pull information from the neighbouring residue
    return (single, pair), target


def make_target():
    torch.manual_seed(0)
    inputs, target = make_inputs(torch.Generator().manual_seed(0))
    return {
        "model": BiasedAttention(use_sdpa=False),
        "batch": (inputs, target),
        "loss_fn": F.mse_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
    }

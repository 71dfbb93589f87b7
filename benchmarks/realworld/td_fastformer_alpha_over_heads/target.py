"""Tabular FastFormer-style model: each numeric column becomes a token, tokens go through additive attention
(global query / global key pooling), then a regression head on the mean token."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class AdditiveAttention(nn.Module):
    def __init__(self, d, n_heads):
        super().__init__()
        self.h, self.dh = n_heads, d // n_heads
        self.q_proj, self.k_proj, self.v_proj = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.w_q = nn.Linear(d, n_heads)
        self.w_k = nn.Linear(d, n_heads)
        self.r_out = nn.Linear(d, d)

    def forward(self, x):  # x: (batch, n_tokens, d)
        b, s, d = x.shape
        q, k, v = self.q_proj(x), self.k_proj(x), self.v_proj(x)
        # per-head pooling weights over the tokens
        alphas = (self.w_q(q) / math.sqrt(self.dh)).softmax(dim=-1)          # (b, s, h)
        global_q = torch.einsum("bsh,bshd->bhd", alphas, q.view(b, s, self.h, self.dh)).reshape(b, 1, d)
        p = k * global_q
        betas = (self.w_k(p) / math.sqrt(self.dh)).softmax(dim=-1)           # (b, s, h)
        global_k = torch.einsum("bsh,bshd->bhd", betas, p.view(b, s, self.h, self.dh)).reshape(b, 1, d)
        u = v * global_k
        self.attn_weights = (alphas, betas)
        self.global_query = global_q
        return q + self.r_out(u)


class TabFastFormer(nn.Module):
    def __init__(self, n_cols=12, d=16, n_heads=4, n_blocks=2):
        super().__init__()
        self.col_w = nn.Parameter(torch.randn(n_cols, d) * 0.5)
        self.col_b = nn.Parameter(torch.zeros(n_cols, d))
        self.blocks = nn.ModuleList(AdditiveAttention(d, n_heads) for _ in range(n_blocks))
        self.norms = nn.ModuleList(nn.LayerNorm(d) for _ in range(n_blocks))
        self.head = nn.Linear(d, 1)

    def forward(self, x):  # x: (batch, n_cols)
        tok = x.unsqueeze(-1) * self.col_w + self.col_b
        for blk, ln in zip(self.blocks, self.norms):
            tok = ln(tok + blk(tok))
        return self.head(tok.mean(1)).squeeze(-1)


def make_target():
    torch.manual_seed(0)
    x = torch.randn(64, 12)
    y = x[:, :3].sum(1) - 0.5 * x[:, 5] * x[:, 7]
    xv = torch.randn(64, 12)
    yv = xv[:, :3].sum(1) - 0.5 * xv[:, 5] * xv[:, 7]
    return {
        "model": TabFastFormer(),
        "batch": (x, y),
        "loss_fn": lambda out, t: F.mse_loss(out, t),
        "val_data": (xv, yv),
        "optimizer": lambda p: torch.optim.AdamW(p, lr=1e-3),
    }

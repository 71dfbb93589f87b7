"""AEMatter-style axial attention block: windows are rearranged batch-first, (B*, L, C), but fed to an
nn.MultiheadAttention built with the default batch_first=False, so it reads them as (L, B*, C)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

B, L, C = 16, 12, 16


class AxialBlock(nn.Module):
    def __init__(self, batch_first_input=True):
        super().__init__()
        self.inp = nn.Linear(4, C)
        self.attn = nn.MultiheadAttention(C, num_heads=2)  # default: expects (seq, batch, dim)
        self.out = nn.Linear(C, 1)
        self.batch_first_input = batch_first_input

    def forward(self, x):  # x: (B, L, 4), already rearranged to (batch*windows, tokens, channels)
        h = self.inp(x)
        if self.batch_first_input:
            a, _ = self.attn(h, h, h)  # tokens of different windows attend to each other
        else:
            t = h.transpose(0, 1)
            a, _ = self.attn(t, t, t)
            a = a.transpose(0, 1)
        return self.out(h + a).squeeze(-1)


def make_batch(g, n=B):
    x = torch.randn(n, L, 4, generator=g)
    y = x[..., 0].mean(dim=1, keepdim=True).expand(n, L) * 3.0  # every token must see its own window
    return x, y.contiguous()


def make_target():
    torch.manual_seed(0)
    model = AxialBlock()
    x, y = make_batch(torch.Generator().manual_seed(0))
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": F.mse_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
    }

"""Blocked local attention with a halo over 1-D feature maps (a halo-attention layer flattened to one axis).

Keys/values for each query block come from a window padded with zeros at the borders; the mask marking the padded
slots is built by unfolding an all-ones map and is applied with masked_fill.
"""

import torch
import torch.nn.functional as F
from torch import nn


class HaloAttention1d(nn.Module):
    def __init__(self, dim=16, block=4, halo=2):
        super().__init__()
        self.block, self.halo = block, halo
        self.q = nn.Linear(dim, dim, bias=False)
        self.kv = nn.Linear(dim, 2 * dim, bias=False)
        self.out = nn.Linear(dim, dim)
        self.scale = dim ** -0.5

    def forward(self, x):  # x: (B, L, D), L divisible by block
        b, length, d = x.shape
        blk, halo = self.block, self.halo
        win = blk + 2 * halo
        n = length // blk
        q = self.q(x).view(b, n, blk, d)
        kv_in = F.pad(x.transpose(1, 2), (halo, halo))  # zero padding at the borders: (B, D, L + 2h)
        kv_in = kv_in.unfold(2, win, blk).permute(0, 2, 3, 1)  # (B, n, win, D)
        k, v = self.kv(kv_in).chunk(2, dim=-1)
        sim = torch.einsum("bnid,bnjd->bnij", q, k) * self.scale
        ones = F.pad(torch.ones(1, 1, length, device=x.device), (halo, halo))
        mask = ones.unfold(2, win, blk)[0, 0]  # (n, win): 1 = real position, 0 = padding
        mask = mask.bool()[None, :, None, :]
        sim = sim.masked_fill(mask, -torch.finfo(sim.dtype).max)
        attn = sim.softmax(dim=-1)
        out = torch.einsum("bnij,bnjd->bnid", attn, v).reshape(b, length, d)
        return self.out(out)


class Net(nn.Module):
    def __init__(self, vocab=32, dim=16, classes=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.attn = HaloAttention1d(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, ids):
        h = self.emb(ids)
        h = h + self.attn(h)
        return self.head(h.mean(1))


def make_target():
    torch.manual_seed(0)
    ids = torch.randint(0, 32, (16, 16))
    y = ids[:, :4].sum(1) % 4
    return {"model": Net(), "batch": (ids, y), "loss_fn": nn.CrossEntropyLoss(),
            "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3)}

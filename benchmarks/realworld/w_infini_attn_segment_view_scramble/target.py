"""Tiny segment-wise (infini-style) causal attention LM; heads/segments split with one view on the projections."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SegmentAttentionLM(nn.Module):
    def __init__(self, vocab=50, d_model=32, n_head=4, n_segments=4, seq_len=32, fixed=False):
        super().__init__()
        self.vocab, self.d, self.h, self.s, self.L = vocab, d_model, n_head, n_segments, seq_len
        self.dh = d_model // n_head
        self.fixed = fixed
        self.emb = nn.Embedding(vocab, d_model)
        self.pos = nn.Parameter(torch.randn(seq_len, d_model) * 0.02)
        self.q = nn.Linear(d_model, d_model)
        self.k = nn.Linear(d_model, d_model)
        self.v = nn.Linear(d_model, d_model)
        self.o = nn.Linear(d_model, d_model)
        self.head = nn.Linear(d_model, vocab)

    def _split(self, t):
        b = t.shape[0]
        seg = self.L // self.s
        if self.fixed:
            return t.view(b, self.s, seg, self.h, self.dh).permute(0, 3, 1, 2, 4)
        return t.view(b, self.h, self.s, seg, self.dh)  # (batch, heads, segments, seg_len, d_head)

    def forward(self, ids):
        b, L = ids.shape
        x = self.emb(ids) + self.pos[:L]
        q, k, v = self._split(self.q(x)), self._split(self.k(x)), self._split(self.v(x))
        seg = L // self.s
        causal = torch.ones(seg, seg, dtype=torch.bool).tril()
        mem_k = torch.zeros(b, self.h, 0, self.dh)
        mem_v = torch.zeros(b, self.h, 0, self.dh)
        outs = []
        for i in range(self.s):
            qi, ki, vi = q[:, :, i], k[:, :, i], v[:, :, i]
            kk = torch.cat([mem_k, ki], 2)
            vv = torch.cat([mem_v, vi], 2)
            scores = qi @ kk.transpose(-1, -2) / math.sqrt(self.dh)
            mask = torch.cat([torch.ones(seg, mem_k.shape[2], dtype=torch.bool), causal], 1)
            scores = scores.masked_fill(~mask, float("-inf"))
            outs.append(F.softmax(scores, -1) @ vv)
            mem_k, mem_v = kk, vv  # compressive memory simplified to a growing cache of past segments
        y = torch.stack(outs, 2)  # (b, h, s, seg, dh)
        y = y.permute(0, 2, 3, 1, 4).reshape(b, L, self.d)
        return self.head(x + self.o(y))


def lm_loss(logits, ids):
    return F.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), ids[:, 1:].reshape(-1))


def make_target():
    torch.manual_seed(0)
    ids = torch.randint(0, 50, (8, 32))
    return {
        "model": SegmentAttentionLM(),
        "batch": (ids, ids),
        "loss_fn": lm_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "causal": True,
    }

"""One causal attention block whose softmax scale is head_dim ** -0.5 but is applied by dividing the query by it,
so the scores end up multiplied by sqrt(head_dim) instead of divided by it."""

import torch
import torch.nn as nn
import torch.nn.functional as F

V, T, D, H = 32, 16, 128, 2
HEAD = D // H


class AttnLM(nn.Module):
    def __init__(self, divide_by_scale=True):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.pos = nn.Parameter(torch.randn(T, D) * 0.5)
        self.qkv = nn.Linear(D, 3 * D)
        self.proj = nn.Linear(D, D)
        self.head = nn.Linear(D, V)
        self.softmax_scale = HEAD ** -0.5
        self.divide_by_scale = divide_by_scale

    def attention_probs(self, ids):
        x = self.emb(ids) + self.pos[: ids.shape[1]]
        q, k, v = self.qkv(x).chunk(3, -1)
        q, k, v = (t.view(ids.shape[0], -1, H, HEAD).transpose(1, 2) for t in (q, k, v))
        q = q / self.softmax_scale if self.divide_by_scale else q * self.softmax_scale
        s = q @ k.transpose(-1, -2)
        mask = torch.ones(ids.shape[1], ids.shape[1], dtype=torch.bool).triu(1)
        return F.softmax(s.masked_fill(mask, float("-inf")), -1), x, v

    def forward(self, ids):
        p, x, v = self.attention_probs(ids)
        a = (p @ v).transpose(1, 2).reshape(ids.shape[0], -1, D)
        return self.head(x + self.proj(a))


def make_batch(g, n=32):
    """Copy task: the second half of the sequence repeats the first half."""
    half = torch.randint(0, V, (n, T // 2), generator=g)
    seq = torch.cat([half, half], 1)
    return seq[:, :-1], seq[:, 1:]


def lm_loss(logits, targets):
    return F.cross_entropy(logits[:, T // 2 - 1:].reshape(-1, V), targets[:, T // 2 - 1:].reshape(-1))


def make_target():
    torch.manual_seed(0)
    model = AttnLM()
    ids, tgt = make_batch(torch.Generator().manual_seed(0))
    return {
        "model": model,
        "batch": (ids, tgt),
        "loss_fn": lm_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
    }

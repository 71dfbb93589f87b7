"""Small DeepCrossAttention-style language model: each block's input is the residual stream plus a learned
aggregation (GRN) over the outputs of all previous blocks."""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, DIM, DEPTH, SEQ = 64, 32, 3, 16


class RMSNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.g = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * self.g


class GRN(nn.Module):
    """Produces one aggregation weight per previous layer output, per token."""

    def __init__(self, dim, num_inputs):
        super().__init__()
        linear = nn.Linear(dim, num_inputs, bias=False)
        nn.init.zeros_(linear.weight)
        self.to_aggregate = nn.Sequential(RMSNorm(dim), linear, nn.ReLU())

    def forward(self, x, hiddens):
        w = self.to_aggregate(x)  # (B, T, num_inputs)
        stacked = torch.stack(hiddens, dim=-2)  # (B, T, num_inputs, dim)
        return (w.unsqueeze(-1) * stacked).sum(-2)


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = RMSNorm(dim)
        self.attn = nn.MultiheadAttention(dim, 4, batch_first=True)
        self.ff = nn.Sequential(RMSNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x, mask):
        h = self.norm(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.ff(x)


class DCATransformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM)
        self.blocks = nn.ModuleList([Block(DIM) for _ in range(DEPTH)])
        self.grns = nn.ModuleList([GRN(DIM, i + 1) for i in range(DEPTH)])
        self.out = nn.Linear(DIM, VOCAB)

    def forward(self, ids):
        T = ids.shape[1]
        mask = torch.triu(torch.ones(T, T, dtype=torch.bool), 1)
        x = self.emb(ids)
        hiddens = [x]
        for block, grn in zip(self.blocks, self.grns):
            x = block(x + grn(x, hiddens), mask)
            hiddens.append(x)
        return self.out(x)


def lm_loss(logits, ids):
    return F.cross_entropy(logits[:, :-1].reshape(-1, VOCAB), ids[:, 1:].reshape(-1))


def _text(n, seed):
    g = torch.Generator().manual_seed(seed)
    start = torch.randint(0, VOCAB, (n, 1), generator=g)
    step = torch.randint(1, 4, (n, 1), generator=g)
    return (start + step * torch.arange(SEQ)) % VOCAB


def make_target():
    torch.manual_seed(0)
    ids = _text(16, 1)
    return {
        "model": DCATransformer(),
        "batch": (ids, ids),
        "loss_fn": lm_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": (_text(128, 2), _text(128, 2)),
        "causal": True,
    }

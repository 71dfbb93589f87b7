"""Tiny GPT-style character model trained with AdamW at a learning rate far above what it tolerates."""
import torch
from torch import nn
import torch.nn.functional as F

V, T = 48, 32


class TinyGPT(nn.Module):
    def __init__(self, d=64):
        super().__init__()
        self.tok = nn.Embedding(V, d)
        self.pos = nn.Embedding(T, d)
        self.block = nn.TransformerEncoderLayer(d, 4, 4 * d, dropout=0.0, batch_first=True, norm_first=True)
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, V, bias=False)

    def forward(self, idx):
        t = idx.shape[1]
        mask = torch.triu(torch.full((t, t), float("-inf")), 1)
        h = self.tok(idx) + self.pos(torch.arange(t))
        return self.head(self.ln(self.block(h, src_mask=mask)))


def lm_loss(logits, targets):
    return F.cross_entropy(logits.flatten(0, 1), targets.flatten())


def make_batch(g, n=16):
    base = torch.randint(0, V, (n, 1), generator=g)
    seq = (base + torch.arange(T + 1)) % V          # learnable next-token structure
    return seq[:, :-1], seq[:, 1:]


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    x, y = make_batch(g)
    return {
        "model": TinyGPT(),
        "batch": (x, y),
        "loss_fn": lm_loss,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=3.0, betas=(0.9, 0.95), weight_decay=0.1),
        "train_data": [make_batch(g) for _ in range(8)],
        "causal": True,
    }

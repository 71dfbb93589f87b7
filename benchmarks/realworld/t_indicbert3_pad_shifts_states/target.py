"""A tiny bidirectional encoder whose attention takes an attention_mask argument; fine-tuned for sentence classification."""

import torch
from torch import nn
import torch.nn.functional as F

VOCAB, D, H, PAD = 60, 32, 4, 0


class Layer(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(D, 3 * D)
        self.o = nn.Linear(D, D)
        self.ff = nn.Sequential(nn.Linear(D, 64), nn.GELU(), nn.Linear(64, D))
        self.n1, self.n2 = nn.LayerNorm(D), nn.LayerNorm(D)

    def forward(self, x, attention_mask):
        B, T, _ = x.shape
        q, k, v = self.qkv(self.n1(x)).view(B, T, 3, H, D // H).permute(2, 0, 3, 1, 4)
        bias = torch.zeros(B, 1, 1, T)
        bias = bias.masked_fill(attention_mask[:, None, None, :] == 0, float("-inf"))
        # bidirectional path: the causal branch used the mask; here only "no causal mask" is passed on
        a = F.scaled_dot_product_attention(q, k, v, attn_mask=None)
        x = x + self.o(a.transpose(1, 2).reshape(B, T, D))
        return x + self.ff(self.n2(x))


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, D)
        self.pos = nn.Embedding(32, D)
        self.layers = nn.ModuleList([Layer(), Layer()])
        self.head = nn.Linear(D, 2)

    def forward(self, input_ids, attention_mask):
        T = input_ids.shape[1]
        x = self.emb(input_ids) + self.pos(torch.arange(T))[None]
        for layer in self.layers:
            x = layer(x, attention_mask)
        m = attention_mask[..., None].float()
        pooled = (x * m).sum(1) / m.sum(1)
        return self.head(pooled)


def _batch(seed=0, n=16):
    g = torch.Generator().manual_seed(seed)
    lens = torch.randint(4, 16, (n,), generator=g)
    ids = torch.randint(1, VOCAB, (n, 16), generator=g)
    mask = (torch.arange(16)[None] < lens[:, None]).long()
    ids = ids * mask
    y = (ids[:, 0] % 2).long()
    return {"input_ids": ids, "attention_mask": mask}, y


def make_target():
    torch.manual_seed(0)
    return {
        "model": Encoder(),
        "batch": _batch(0),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.AdamW(p, lr=1e-3),
        "val_data": [_batch(1)],
    }

"""Small BERT-like encoder layer whose self-attention uses sm_scale = 1.0."""
import torch
import torch.nn.functional as F
from torch import nn


class EncoderLayer(nn.Module):
    def __init__(self, d=256, heads=4, sm_scale=1.0):
        super().__init__()
        self.h, self.dh, self.sm_scale = heads, d // heads, sm_scale
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln = nn.LayerNorm(d)
        self.last_attn = None

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        att = F.softmax((q @ k.transpose(-2, -1)) * self.sm_scale, dim=-1)
        self.last_attn = att
        y = (att @ v).transpose(1, 2).reshape(B, T, D)
        return self.ln(x + self.proj(y))


class Encoder(nn.Module):
    def __init__(self, vocab=500, d=256):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([EncoderLayer(d) for _ in range(2)])

    def forward(self, ids):
        x = self.emb(ids)
        for layer in self.layers:
            x = layer(x)
        return x.mean(1)


def make_target():
    torch.manual_seed(0)
    ids = torch.randint(0, 500, (8, 16))
    return {
        "model": Encoder(),
        "batch": (ids, torch.randn(8, 256)),
        "loss_fn": lambda out, y: 1 - F.cosine_similarity(out, y).mean(),
    }

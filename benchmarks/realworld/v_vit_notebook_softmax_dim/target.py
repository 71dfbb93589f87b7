"""Tiny ViT-style classifier (patch embedding + one self-attention block) on 4x4 patches of 16x16 images."""
import torch
from torch import nn
import torch.nn.functional as F

P, D, N_CLS = 4, 32, 10


class SelfAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.scale = d ** -0.5
        self.last_weights = None

    def forward(self, x):                        # x: (B, N, D)
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scores = q @ k.transpose(1, 2) * self.scale  # (B, N_query, N_key)
        weights = F.softmax(scores, dim=1)
        self.last_weights = weights.detach()
        return self.out(weights @ v)


class TinyViT(nn.Module):
    def __init__(self):
        super().__init__()
        self.patch = nn.Conv2d(1, D, kernel_size=P, stride=P)
        self.pos = nn.Parameter(torch.randn(1, 16, D) * 0.02)
        self.norm1 = nn.LayerNorm(D)
        self.attn = SelfAttention(D)
        self.norm2 = nn.LayerNorm(D)
        self.mlp = nn.Sequential(nn.Linear(D, 2 * D), nn.GELU(), nn.Linear(2 * D, D))
        self.head = nn.Linear(D, N_CLS)

    def forward(self, img):
        x = self.patch(img).flatten(2).transpose(1, 2) + self.pos  # (B, 16, D)
        x = x + self.attn(self.norm1(x))
        x = x + self.mlp(self.norm2(x))
        return self.head(x.mean(1))


def make_target():
    torch.manual_seed(0)
    x = torch.randn(32, 1, 16, 16)
    y = torch.randint(0, N_CLS, (32,))
    return {"model": TinyViT(), "batch": (x, y), "loss_fn": nn.CrossEntropyLoss(),
            "optimizer": lambda p: torch.optim.AdamW(p, lr=1e-3)}

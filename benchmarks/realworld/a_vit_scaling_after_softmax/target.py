"""Tiny ViT: patch embedding + cls token + one transformer block with einsum multi-head attention."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, emb_size=64, num_heads=2):
        super().__init__()
        self.num_heads = num_heads
        self.qkv = nn.Linear(emb_size, emb_size * 3)
        self.projection = nn.Linear(emb_size, emb_size)
        self.scaling = (emb_size // num_heads) ** -0.5
        self.last_att = None

    def forward(self, x):
        b, n, e = x.shape
        qkv = self.qkv(x).reshape(b, n, 3, self.num_heads, e // self.num_heads).permute(2, 0, 3, 1, 4)
        queries, keys, values = qkv[0], qkv[1], qkv[2]
        energy = torch.einsum("bhqd,bhkd->bhqk", queries, keys)
        att = F.softmax(energy, dim=-1) * self.scaling
        self.last_att = att.detach()
        out = torch.einsum("bhqk,bhkd->bhqd", att, values)
        return self.projection(out.permute(0, 2, 1, 3).reshape(b, n, e))


class TinyViT(nn.Module):
    def __init__(self, patch=4, img=16, emb_size=64, n_classes=10):
        super().__init__()
        self.patchify = nn.Conv2d(3, emb_size, kernel_size=patch, stride=patch)
        self.cls_token = nn.Parameter(torch.randn(1, 1, emb_size))
        self.positions = nn.Parameter(torch.randn((img // patch) ** 2 + 1, emb_size))
        self.norm1 = nn.LayerNorm(emb_size)
        self.attn = MultiHeadAttention(emb_size)
        self.norm2 = nn.LayerNorm(emb_size)
        self.mlp = nn.Sequential(nn.Linear(emb_size, 128), nn.GELU(), nn.Linear(128, emb_size))
        self.head = nn.Sequential(nn.LayerNorm(emb_size), nn.Linear(emb_size, n_classes))

    def forward(self, imgs):
        x = self.patchify(imgs).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls_token.expand(x.size(0), -1, -1), x], dim=1) + self.positions
        x = x + self.attn(self.norm1(x))
        x = x + self.mlp(self.norm2(x))
        return self.head(x[:, 0])


def make_target():
    torch.manual_seed(0)
    imgs = torch.randn(16, 3, 16, 16)
    labels = torch.randint(0, 10, (16,))
    return {
        "model": TinyViT(),
        "batch": ((imgs,), labels),
        "loss_fn": nn.CrossEntropyLoss(),
    }

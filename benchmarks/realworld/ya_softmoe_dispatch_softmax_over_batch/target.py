"""Small ViT-style image classifier whose MLP blocks are Soft-MoE layers (patch tokens -> slots -> experts -> tokens)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SoftMoE(nn.Module):
    def __init__(self, dim, num_experts=4, slots_per_expert=2, hidden=64):
        super().__init__()
        self.num_experts = num_experts
        self.slots_per_expert = slots_per_expert
        self.phi = nn.Parameter(torch.empty(dim, num_experts, slots_per_expert))
        nn.init.kaiming_uniform_(self.phi, a=math.sqrt(5))
        self.w1 = nn.Parameter(torch.randn(num_experts, dim, hidden) / math.sqrt(dim))
        self.w2 = nn.Parameter(torch.randn(num_experts, hidden, dim) / math.sqrt(hidden))

    def forward(self, x):  # x: (b, m, d)
        logits = torch.einsum("bmd,dnp->bmnp", x, self.phi)
        dispatch = logits.softmax(dim=0)
        combine = logits.flatten(2).softmax(dim=-1).view_as(logits)
        slots = torch.einsum("bmd,bmnp->bnpd", x, dispatch)
        h = F.gelu(torch.einsum("bnpd,ndh->bnph", slots, self.w1))
        y = torch.einsum("bnph,nhd->bnpd", h, self.w2)
        return torch.einsum("bnpd,bmnp->bmd", y, combine)


class Block(nn.Module):
    def __init__(self, dim, heads=4):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim)
        self.moe = SoftMoE(dim)

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.moe(self.norm2(x))


class SoftMoEViT(nn.Module):
    def __init__(self, img=16, patch=4, dim=32, depth=2, n_classes=10):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, patch, stride=patch)
        self.pos = nn.Parameter(torch.zeros(1, (img // patch) ** 2, dim))
        self.blocks = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, images):
        x = self.patch_embed(images).flatten(2).transpose(1, 2) + self.pos
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.norm(x).mean(1))


def make_target():
    torch.manual_seed(0)
    images = torch.randn(16, 3, 16, 16)
    labels = torch.randint(0, 10, (16,))
    return {
        "model": SoftMoEViT(),
        "batch": (images, labels),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.AdamW(p, lr=1e-3, weight_decay=0.05),
    }

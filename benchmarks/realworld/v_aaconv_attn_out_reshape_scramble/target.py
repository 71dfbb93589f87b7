"""Small CIFAR-style classifier with an attention-augmented conv block (conv branch + self-attention branch)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class AugmentedConv(nn.Module):
    def __init__(self, cin, cout, dk=8, dv=8, heads=2):
        super().__init__()
        self.dk, self.dv, self.heads = dk, dv, heads
        self.conv = nn.Conv2d(cin, cout - dv, 3, padding=1)
        self.qkv = nn.Conv2d(cin, 2 * dk + dv, 1)
        self.attn_out = nn.Conv2d(dv, dv, 1)

    def attention(self, x):
        B, _, H, W = x.shape
        q, k, v = torch.split(self.qkv(x), [self.dk, self.dk, self.dv], dim=1)
        nh = self.heads
        q = q.reshape(B, nh, self.dk // nh, H * W) * (self.dk // nh) ** -0.5
        k = k.reshape(B, nh, self.dk // nh, H * W)
        v = v.reshape(B, nh, self.dv // nh, H * W)
        w = torch.softmax(torch.einsum("bhdi,bhdj->bhij", q, k), dim=-1)
        out = torch.einsum("bhij,bhdj->bhid", w, v)  # (B, heads, H*W, dv/heads)
        out = out.reshape(B, nh, self.dv // nh, H, W)
        return self.attn_out(out.reshape(B, self.dv, H, W))

    def forward(self, x):
        return torch.cat([self.conv(x), self.attention(x)], dim=1)


class Net(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 3, padding=1)
        self.aa = AugmentedConv(16, 32)
        self.head = nn.Linear(32, classes)

    def forward(self, x):
        h = F.relu(self.stem(x))
        h = F.relu(self.aa(h))
        return self.head(h.mean((2, 3)))


def make_target():
    torch.manual_seed(0)
    x = torch.randn(16, 3, 8, 8)
    y = torch.randint(0, 10, (16,))
    return {
        "model": Net(),
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
    }

"""Reference-based sketch colorization with a spatially corresponding feature transfer (SCFT) block.

Both encoders produce (B, C, H, W) maps. SCFT treats every spatial position as a token:
queries from the sketch, keys/values from the reference, then the attended values are put
back on the grid and decoded to colors.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

C, H, W = 24, 8, 8


class Encoder(nn.Module):
    def __init__(self, cin):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 8, 3, padding=1)
        self.conv3 = nn.Conv2d(8, 8, 3, padding=1)

    def features(self, x):
        f1 = F.relu(self.conv1(x))
        f2 = F.relu(self.conv2(f1))
        f3 = F.relu(self.conv3(f2))
        return torch.cat([f2, f3, f1[:, :8]], dim=1)         # (B, C, H, W) multi-level features

    @staticmethod
    def to_tokens(output):
        b, ch, h, w = output.size()
        return output.reshape((b, h * w, ch))                 # tokens: (B, H*W, C)

    def forward(self, x):
        return self.to_tokens(self.features(x))


class SCFT(nn.Module):
    def __init__(self):
        super().__init__()
        self.wq = nn.Linear(C, C)
        self.wk = nn.Linear(C, C)
        self.wv = nn.Linear(C, C)

    def forward(self, vs, vr):
        q, k, v = self.wq(vs), self.wk(vr), self.wv(vr)
        attn = torch.softmax(q @ k.transpose(1, 2) / math.sqrt(C), dim=-1)
        return vs + attn @ v


class Colorizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.sketch_enc = Encoder(1)
        self.ref_enc = Encoder(3)
        self.scft = SCFT()
        self.dec = nn.Sequential(nn.Conv2d(C, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 3, 1))

    def forward(self, sketch, reference):
        vs = self.sketch_enc(sketch)
        vr = self.ref_enc(reference)
        c = self.scft(vs, vr)                                  # (B, H*W, C)
        b = c.size(0)
        grid = c.transpose(1, 2).reshape(b, C, H, W)
        return torch.tanh(self.dec(grid))


def make_data(n=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    color = torch.rand(n, 3, H, W, generator=g) * 2 - 1
    color = F.avg_pool2d(F.pad(color, (1, 1, 1, 1), mode="replicate"), 3, 1)
    sketch = color.mean(1, keepdim=True)
    sketch = (sketch - F.avg_pool2d(F.pad(sketch, (1, 1, 1, 1), mode="replicate"), 3, 1)).abs()
    reference = torch.flip(color, dims=[3])                   # spatially transformed copy of the target
    return sketch, reference, color


def make_target():
    torch.manual_seed(0)
    sketch, reference, color = make_data()
    return {
        "model": Colorizer(),
        "batch": ((sketch, reference), color),
        "loss_fn": lambda out, y: F.l1_loss(out, y),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3, betas=(0.5, 0.999)),
    }

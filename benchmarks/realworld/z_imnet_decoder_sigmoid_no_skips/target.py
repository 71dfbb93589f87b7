"""IM-NET-style implicit occupancy decoder: deep leaky-ReLU MLP, N(0, 0.02) init, sigmoid output, no skip connections."""

import torch
import torch.nn as nn
import torch.nn.functional as F

Z, WIDTH, DEPTH, N_PTS = 16, 64, 6, 128


class ImplicitDecoder(nn.Module):
    def __init__(self, skips=False):
        super().__init__()
        self.skips = skips
        extra = 3 + Z if skips else 0
        dims = [3 + Z] + [WIDTH] * DEPTH
        self.layers = nn.ModuleList(nn.Linear(dims[i] + (extra if i > 0 else 0), dims[i + 1]) for i in range(DEPTH))
        self.out = nn.Linear(WIDTH + extra, 1)
        for m in list(self.layers) + [self.out]:
            nn.init.normal_(m.weight, mean=0.0, std=0.02)
            nn.init.zeros_(m.bias)

    def forward(self, points, codes):  # (B, N, 3), (B, Z)
        inp = torch.cat([points, codes[:, None].expand(-1, points.shape[1], -1)], dim=-1)
        h = inp
        for i, layer in enumerate(self.layers):
            if self.skips and i > 0:
                h = torch.cat([h, inp], dim=-1)
            h = F.leaky_relu(layer(h), 0.02)
        if self.skips:
            h = torch.cat([h, inp], dim=-1)
        return torch.sigmoid(self.out(h)).squeeze(-1)


def make_shapes(g, n=16):
    """Each shape code encodes a sphere radius; occupancy = inside the sphere."""
    codes = torch.randn(n, Z, generator=g)
    radius = 0.3 + 0.4 * torch.sigmoid(codes[:, 0])
    points = torch.rand(n, N_PTS, 3, generator=g) * 2 - 1
    occ = (points.norm(dim=-1) < radius[:, None]).float()
    return points, codes, occ


def make_target():
    torch.manual_seed(0)
    points, codes, occ = make_shapes(torch.Generator().manual_seed(0))
    return {
        "model": ImplicitDecoder(),
        "batch": ((points, codes), occ),
        "loss_fn": F.mse_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=5e-5, betas=(0.5, 0.999)),
    }

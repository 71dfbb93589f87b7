"""Small inpainting generator with a hypergraph convolution block at the bottleneck (PyTorch port of a Keras layer)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class HypergraphConv(nn.Module):
    def __init__(self, in_channels, filters, num_edges=8):
        super().__init__()
        self.in_channels, self.filters, self.num_edges = in_channels, filters, num_edges
        self.edge_weight = nn.Parameter(torch.ones(num_edges))
        self.theta = nn.Parameter(torch.randn(in_channels, filters) * (1.0 / in_channels) ** 0.5)

    def forward(self, x):
        b, c, h, w = x.shape
        phi = nn.Conv2d(c, self.num_edges, 1).to(x.device)(x)
        lam = nn.Conv2d(c, self.num_edges, 3, padding=1).to(x.device)(x)
        incidence = torch.softmax((phi + lam).flatten(2), dim=1)           # (B, E, N): node-to-edge memberships
        nodes = x.flatten(2).transpose(1, 2)                               # (B, N, C)
        edge_degree = incidence.sum(-1, keepdim=True)
        edges = incidence @ nodes / edge_degree * self.edge_weight.view(1, -1, 1)   # (B, E, C)
        out = incidence.transpose(1, 2) @ edges @ self.theta                # (B, N, F)
        return F.elu(out.transpose(1, 2).reshape(b, self.filters, h, w) + x)


class InpaintNet(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(4, ch, 3, padding=1), nn.ELU(), nn.Conv2d(ch, ch, 3, stride=2, padding=1), nn.ELU())
        self.hyper = HypergraphConv(ch, ch)
        self.dec = nn.Sequential(nn.ConvTranspose2d(ch, ch, 4, stride=2, padding=1), nn.ELU(), nn.Conv2d(ch, 3, 3, padding=1))

    def forward(self, image, mask):
        x = torch.cat([image * (1 - mask), mask], 1)
        out = torch.sigmoid(self.dec(self.hyper(self.enc(x))))
        return out * mask + image * (1 - mask)


def make_batch(n, seed):
    g = torch.Generator().manual_seed(seed)
    base = torch.rand(n, 3, 4, 4, generator=g)
    image = F.interpolate(base, size=16, mode="bilinear", align_corners=False)
    mask = torch.zeros(n, 1, 16, 16)
    for i in range(n):
        r, c = torch.randint(0, 9, (2,), generator=g).tolist()
        mask[i, :, r:r + 7, c:c + 7] = 1.0
    return image, mask


def make_target():
    torch.manual_seed(0)
    image, mask = make_batch(16, seed=0)
    return {
        "model": InpaintNet(),
        "batch": ((image, mask), image),
        "loss_fn": lambda out, target: F.l1_loss(out, target),
        "optimizer": lambda params: torch.optim.Adam(params, lr=2e-3),
    }

"""Autoencoder with a residual vector quantizer (several codebooks applied to successive residuals).
Each quantizer uses the straight-through estimator and returns a commitment loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class VectorQuantizer(nn.Module):
    def __init__(self, dim, codebook_size):
        super().__init__()
        self.register_buffer("codebook", torch.randn(codebook_size, dim) * 0.5)

    def forward(self, x):
        d = torch.cdist(x, self.codebook)
        q = self.codebook[d.argmin(dim=-1)]
        commit = F.mse_loss(q.detach(), x)
        q = x + (q - x).detach()  # straight-through
        return q, commit


class ResidualVQ(nn.Module):
    def __init__(self, dim, codebook_size=16, n_quantizers=3):
        super().__init__()
        self.layers = nn.ModuleList(VectorQuantizer(dim, codebook_size) for _ in range(n_quantizers))

    def forward(self, x):
        residual = x
        out = torch.zeros_like(x)
        losses = []
        for layer in self.layers:
            q, commit = layer(residual)
            residual = residual - q
            out = out + q
            losses.append(commit)
        return out, torch.stack(losses)


class VQAutoencoder(nn.Module):
    def __init__(self, n_in=24, dim=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(n_in, 32), nn.ReLU(), nn.Linear(32, dim))
        self.rvq = ResidualVQ(dim)
        self.dec = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, n_in))

    def forward(self, x):
        z = self.enc(x)
        zq, commit = self.rvq(z)
        return self.dec(zq), commit


def loss_fn(output, x):
    recon, commit = output
    return F.mse_loss(recon, x) + 0.25 * commit.sum()


def make_target():
    torch.manual_seed(0)
    x = torch.randn(64, 24)
    xt = torch.randn(512, 24)
    return {
        "model": VQAutoencoder(),
        "batch": (x, x),
        "loss_fn": loss_fn,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": (xt, xt),
    }

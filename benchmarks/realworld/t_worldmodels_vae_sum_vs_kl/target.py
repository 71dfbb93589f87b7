"""Small VAE whose loss sums squared error over pixels but averages KL over latent dims."""

import torch
from torch import nn


class VAE(nn.Module):
    def __init__(self, d_in=768, z=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d_in, 128), nn.ReLU())
        self.mu = nn.Linear(128, z)
        self.logvar = nn.Linear(128, z)
        self.dec = nn.Sequential(nn.Linear(z, 128), nn.ReLU(), nn.Linear(128, d_in), nn.Sigmoid())

    def forward(self, x):
        h = self.enc(x)
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.exp(0.5 * logvar) * torch.randn_like(mu)
        return self.dec(z), mu, logvar


def recon_term(out, x):
    return (out[0] - x).pow(2).sum(dim=1).mean()  # summed over all pixels


def kl_term(out):
    mu, logvar = out[1], out[2]
    return (-0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).mean(dim=1)).mean()  # averaged over latents


def vae_loss(out, x):
    return recon_term(out, x) + kl_term(out)


def make_frames(n=256, seed=0, side=16):
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.arange(side).float(), torch.arange(side).float(), indexing="ij")
    cy = torch.rand(n, 1, 1, generator=g) * side
    cx = torch.rand(n, 1, 1, generator=g) * side
    blob = torch.exp(-((yy - cy) ** 2 + (xx - cx) ** 2) / 8.0)
    color = torch.rand(n, 3, 1, 1, generator=g)
    return (blob.unsqueeze(1) * color).flatten(1)


def make_target():
    torch.manual_seed(0)
    x = make_frames()
    return {
        "model": VAE(),
        "batch": (x[:64], x[:64]),
        "loss_fn": vae_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "train_data": (x, x),
    }

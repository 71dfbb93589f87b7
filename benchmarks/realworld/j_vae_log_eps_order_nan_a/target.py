"""Bernoulli VAE on 8x8 binary sprites (the frame pixels are always on); reconstruction term written out by hand."""

import torch
import torch.nn as nn


class VAE(nn.Module):
    def __init__(self, d=64, z=4, h=128):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d, h), nn.ReLU(), nn.Linear(h, 2 * z))
        self.dec = nn.Sequential(nn.Linear(z, h), nn.ReLU(), nn.Linear(h, d), nn.Sigmoid())

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        zs = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(zs), mu, logvar


def vae_loss(out, x):
    x_mean, mu, logvar = out
    recon = -torch.sum(x * torch.log(1e-10 + x_mean) + (1 - x) * torch.log(1e-10 + 1 - x_mean), 1)
    kl = -0.5 * torch.sum(1 + logvar - mu**2 - logvar.exp(), 1)
    return (recon + kl).mean()


def _sprites(n, seed):
    g = torch.Generator().manual_seed(seed)
    img = (torch.rand(n, 8, 8, generator=g) < 0.3).float()
    img[:, 0, :] = img[:, -1, :] = img[:, :, 0] = img[:, :, -1] = 1.0
    x = img.flatten(1)
    return x, x


def make_target():
    torch.manual_seed(0)
    return {
        "model": VAE(),
        "batch": _sprites(64, 1),
        "loss_fn": vae_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=2e-2),
        "train_data": _sprites(1024, 2),
        "val_data": _sprites(256, 3),
    }

"""Small VAE for expression-like vectors; loss = mean-reduced MSE + batch-summed KL."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, n_in=64, hidden=64, latent=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU())
        self.mu = nn.Linear(hidden, latent)
        self.logvar = nn.Linear(hidden, latent)
        self.dec = nn.Sequential(nn.Linear(latent, hidden), nn.ReLU(), nn.Linear(hidden, n_in))

    def forward(self, x):
        h = self.enc(x)
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        return self.dec(z), mu, logvar


def kl_divergence(mu, logvar):
    return -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())


def vae_loss(output, x):
    recon, mu, logvar = output
    return F.mse_loss(recon, x) + kl_divergence(mu, logvar)


def _cells(n, seed):
    g = torch.Generator().manual_seed(seed)
    programs = torch.randn(4, 64, generator=g)
    weights = torch.randn(n, 4, generator=g)
    return weights @ programs + 0.1 * torch.randn(n, 64, generator=g)


def make_target():
    torch.manual_seed(0)
    x = _cells(64, 1)
    return {
        "model": VAE(),
        "batch": ((x,), x),
        "loss_fn": vae_loss,
        "train_data": (_cells(256, 2), _cells(256, 2)),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
    }

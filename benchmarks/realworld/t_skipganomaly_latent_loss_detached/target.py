"""Skip-GANomaly-style generator step: reconstruction loss + latent (feature-matching) loss from the discriminator."""

import torch
from torch import nn

DIM = 32
W_CON, W_LAT = 1.0, 1.0


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(DIM, 16), nn.ReLU())
        self.dec = nn.Linear(16, DIM)

    def forward(self, x):
        return self.dec(self.enc(x))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(DIM, 24), nn.LeakyReLU(0.2), nn.Linear(24, 8))
        self.head = nn.Linear(8, 1)

    def forward(self, x):
        f = self.features(x)
        return self.head(f), f


netd = Discriminator()
for p in netd.parameters():
    p.requires_grad_(False)  # D is updated in its own step; only G trains here


def loss_fn(fake, real):
    _, feat_real = netd(real)
    _, feat_fake = netd(fake.detach())
    err_g_lat = ((feat_real - feat_fake) ** 2).mean()
    err_g_con = (fake - real).abs().mean()
    return W_CON * err_g_con + W_LAT * err_g_lat


def make_target():
    torch.manual_seed(0)
    x = torch.randn(64, DIM)
    return {
        "model": Generator(),
        "batch": (x, x),
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=2e-3),
    }

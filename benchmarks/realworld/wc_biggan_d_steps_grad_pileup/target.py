"""Tiny hinge-loss GAN trained with several discriminator steps per generator step."""
import torch
from torch import nn
import torch.nn.functional as F

Z_DIM, X_DIM, D_STEPS = 8, 16, 4


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(Z_DIM, 32), nn.ReLU(), nn.Linear(32, X_DIM))

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(X_DIM, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


class GANPair(nn.Module):
    def __init__(self):
        super().__init__()
        self.G = Generator()
        self.D = Discriminator()

    def forward(self, z, x_real):
        fake = self.G(z)
        return self.D(x_real), self.D(fake)


def toggle_grad(module, on):
    for p in module.parameters():
        p.requires_grad_(on)


def d_hinge(d_real, d_fake):
    return F.relu(1.0 - d_real).mean() + F.relu(1.0 + d_fake).mean()


def loss_fn(output, targets):
    d_real, d_fake = output
    return d_hinge(d_real, d_fake)


def train_step(model, batch, optimizer, loss_fn):
    (z, x_real), _ = batch
    model.train()
    # ---- discriminator phase ----
    toggle_grad(model.D, True)
    toggle_grad(model.G, False)
    optimizer.zero_grad()
    for _ in range(D_STEPS):
        with torch.no_grad():
            fake = model.G(torch.randn_like(z))
        d_loss = d_hinge(model.D(x_real), model.D(fake))
        d_loss.backward()
        optimizer.step()
    # ---- generator phase ----
    toggle_grad(model.D, False)
    toggle_grad(model.G, True)
    optimizer.zero_grad()
    g_loss = -model.D(model.G(z)).mean()
    g_loss.backward()
    optimizer.step()
    toggle_grad(model.D, True)
    return d_loss.detach()


def make_target():
    torch.manual_seed(0)
    B = 64
    z = torch.randn(B, Z_DIM)
    x_real = torch.randn(B, X_DIM) * 0.5 + 1.0
    return {
        "model": GANPair(),
        "batch": ((z, x_real), torch.ones(B)),
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=2e-4, betas=(0.0, 0.999)),
        "train_step": train_step,
    }

"""GAN discriminator with BatchNorm; real and generated samples concatenated into one batch and shuffled."""

import torch
import torch.nn as nn


class Discriminator(nn.Module):
    def __init__(self, norm="bn"):
        super().__init__()
        n = nn.BatchNorm1d(64) if norm == "bn" else nn.GroupNorm(8, 64)
        self.net = nn.Sequential(nn.Linear(2, 64), n, nn.LeakyReLU(0.2), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def make_batch(n=64):
    g = torch.Generator().manual_seed(2)
    real = torch.randn(n, 2, generator=g) * 0.5 + torch.tensor([2.0, 0.0])
    fake = torch.randn(n, 2, generator=g) * 0.5 - torch.tensor([2.0, 0.0])
    x = torch.cat([real, fake])
    y = torch.cat([torch.ones(n), torch.zeros(n)])
    perm = torch.randperm(2 * n, generator=g)
    return x[perm], y[perm]


def make_target(norm="bn"):
    torch.manual_seed(0)
    return {"model": Discriminator(norm), "batch": make_batch(),
            "loss_fn": nn.BCEWithLogitsLoss(), "optimizer": lambda p: torch.optim.Adam(p, lr=2e-4, betas=(0.5, 0.999))}

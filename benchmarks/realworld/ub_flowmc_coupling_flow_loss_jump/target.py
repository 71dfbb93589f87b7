"""Affine-coupling normalizing flow trained by maximum likelihood on samples coming out of MCMC chains
(the global proposal of an adaptive sampler). Samples are mostly on a narrow banana; a chain now and then
wanders far into the tails."""
import math

import torch
import torch.nn as nn


class AffineCoupling(nn.Module):
    def __init__(self, hidden=32, flip=False):
        super().__init__()
        self.flip = flip
        self.net = nn.Sequential(nn.Linear(1, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(),
                                 nn.Linear(hidden, 2))

    def forward(self, x):
        a, b = (x[:, 1:], x[:, :1]) if self.flip else (x[:, :1], x[:, 1:])
        st = self.net(a)
        log_scale, shift = st[:, :1], st[:, 1:]
        b = b * torch.exp(log_scale) + shift
        out = torch.cat([b, a], 1) if self.flip else torch.cat([a, b], 1)
        return out, log_scale.sum(1)


class CouplingFlow(nn.Module):
    def __init__(self, n_layers=6):
        super().__init__()
        self.layers = nn.ModuleList([AffineCoupling(flip=i % 2 == 1) for i in range(n_layers)])

    def forward(self, x):
        logdet = torch.zeros(x.shape[0])
        for layer in self.layers:
            x, ld = layer(x)
            logdet = logdet + ld
        return x, logdet


def flow_nll(out, _targets=None):
    z, logdet = out
    return (0.5 * (z ** 2).sum(1) + math.log(2 * math.pi) - logdet).mean()


def train_step(model, batch, optimizer, loss_fn):
    x, y = batch
    model.train()
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


def chain_samples(n, g):
    x1 = 2.0 * torch.randn(n, 1, generator=g)
    x2 = 0.25 * x1 ** 2 + 0.05 * torch.randn(n, 1, generator=g)
    return torch.cat([x1, x2], 1)


STRAYS = torch.tensor([[9.0, -6.0], [-9.0, -6.0], [8.0, -5.0], [-8.0, -5.0]])


STRAY_AT = 300


def training_batches(n_clean_after=10, seed=0):
    g = torch.Generator().manual_seed(seed)
    batches = [chain_samples(128, g) for _ in range(STRAY_AT)]
    stray = chain_samples(128, g)
    stray[:4] = STRAYS                       # four walkers that drifted into the tails
    batches.append(stray)
    g2 = torch.Generator().manual_seed(seed + 5)
    batches += [chain_samples(128, g2) for _ in range(n_clean_after)]
    return [(b, torch.zeros(len(b))) for b in batches]


def make_target():
    torch.manual_seed(0)
    batches = training_batches()
    return {
        "model": CouplingFlow(),
        "batch": batches[STRAY_AT],
        "loss_fn": flow_nll,
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_step": train_step,
        "train_data": batches,
        "val_data": (chain_samples(512, torch.Generator().manual_seed(99)), torch.zeros(512)),
    }

"""MLP encoder trained with an NT-Xent contrastive loss on two noisy views of each sample; SGD, lr 0.035, momentum 0.9."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def two_views(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 32, generator=g)
    return x + 0.1 * torch.randn(n, 32, generator=g), x + 0.1 * torch.randn(n, 32, generator=g)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 16))

    def forward(self, views):
        a, b = views
        return self.net(a), self.net(b)


def nt_xent(out, _unused=None, temperature=0.1):
    z1, z2 = out
    z = torch.cat([z1, z2])
    sim = z @ z.t() / temperature
    n = len(z1)
    sim = sim.masked_fill(torch.eye(2 * n, dtype=torch.bool), -1e9)
    target = torch.cat([torch.arange(n, 2 * n), torch.arange(n)])
    return F.cross_entropy(sim, target)


def make_target():
    torch.manual_seed(0)
    a, b = two_views(1024, 1)
    dummy = torch.zeros(64)
    return {
        "model": Encoder(),
        "batch": ((a[:64], b[:64]), dummy),
        "loss_fn": nt_xent,
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.035, momentum=0.9),
        "call_model": lambda m, views: m(views),
        "train_data": [((a[i : i + 64], b[i : i + 64]), dummy) for i in range(0, 1024, 64)],
    }

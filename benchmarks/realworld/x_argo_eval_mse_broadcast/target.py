"""Two-tower rating model: the head returns (B, 1) scores, the labels come as (B,). Training squeezes the scores,
the evaluation MSE does not, so (B, 1) - (B,) broadcasts to a (B, B) matrix of all user/item pairs."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_USERS, N_ITEMS, D, B = 50, 40, 8, 64


class TwoTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.user = nn.Embedding(N_USERS, D)
        self.item = nn.Embedding(N_ITEMS, D)
        self.bias = nn.Parameter(torch.zeros(1))

    def forward(self, inputs):
        u, i = inputs
        return (self.user(u) * self.item(i)).sum(-1, keepdim=True) + self.bias  # (B, 1)


def train_loss(pred, label):
    return F.mse_loss(pred.squeeze(-1), label)


def eval_mse(pred, label):
    return F.mse_loss(pred, label).item()  # (B, 1) vs (B,) -> broadcast to (B, B)


def make_batch(g, n=B):
    gw = torch.Generator().manual_seed(5)
    uf, itf = torch.randn(N_USERS, 3, generator=gw), torch.randn(N_ITEMS, 3, generator=gw)
    u = torch.randint(0, N_USERS, (n,), generator=g)
    i = torch.randint(0, N_ITEMS, (n,), generator=g)
    label = (uf[u] * itf[i]).sum(-1) + 0.1 * torch.randn(n, generator=g)
    return (u, i), label


def make_target():
    torch.manual_seed(0)
    inputs, label = make_batch(torch.Generator().manual_seed(0))
    return {
        "model": TwoTower(),
        "batch": (inputs, label),
        "loss_fn": train_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=0.02),
        "metric_fn": eval_mse,
    }

"""Matrix-factorisation recommender with a BPR loss written as log(sigmoid(pos - neg))."""

import torch
from torch import nn


class MF(nn.Module):
    def __init__(self, n_users=50, n_items=80, dim=16):
        super().__init__()
        self.u = nn.Embedding(n_users, dim)
        self.i = nn.Embedding(n_items, dim)
        nn.init.normal_(self.u.weight, std=3.0)
        nn.init.normal_(self.i.weight, std=3.0)

    def forward(self, users, pos, neg):
        eu = self.u(users)
        return (eu * self.i(pos)).sum(-1), (eu * self.i(neg)).sum(-1)


def bpr_loss(scores, _targets=None):
    pos, neg = scores
    return -torch.mean(torch.log(torch.sigmoid(pos - neg)))


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    users = torch.randint(0, 50, (256,), generator=g)
    pos = torch.randint(0, 80, (256,), generator=g)
    neg = torch.randint(0, 80, (256,), generator=g)
    return {
        "model": MF(),
        "batch": ((users, pos, neg), torch.zeros(256)),
        "loss_fn": bpr_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
    }

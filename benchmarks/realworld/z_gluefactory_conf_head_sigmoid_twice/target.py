"""Token-confidence head of a feature matcher: sigmoid in the head, BCEWithLogitsLoss in the loss."""

import torch
import torch.nn as nn

DIM = 32


class TokenConfidence(nn.Module):
    def __init__(self, dim=DIM):
        super().__init__()
        self.token = nn.Sequential(nn.Linear(dim, 1), nn.Sigmoid())

    def forward(self, desc):
        return self.token(desc.detach()).squeeze(-1)


def make_tokens(g, n=512):
    """Descriptors whose first direction decides whether the token's match is already final."""
    desc = torch.randn(n, DIM, generator=g)
    final = (desc[:, 0] + 0.3 * desc[:, 1] > 0).float()
    return desc, final


bce = nn.BCEWithLogitsLoss()


def loss_fn(out, target):
    return bce(out, target)


def make_target():
    torch.manual_seed(0)
    desc, final = make_tokens(torch.Generator().manual_seed(0))
    return {"model": TokenConfidence(), "batch": (desc, final), "loss_fn": loss_fn,
            "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2)}

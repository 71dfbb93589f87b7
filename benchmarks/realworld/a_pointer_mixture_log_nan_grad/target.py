"""Gated mixture of a generation softmax and a copy softmax over the same 3 outputs, scored with NLL of log(mix)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GatedMixtureHead(nn.Module):
    def __init__(self, n_in=3, n_out=3):
        super().__init__()
        self.gen = nn.Linear(n_in, n_out, bias=False)
        self.copy = nn.Linear(n_in, n_out, bias=False)
        self.gate = nn.Linear(n_in, 1)

    def forward(self, x):
        p = torch.sigmoid(self.gate(x))
        mix = p * torch.softmax(self.gen(x), dim=-1) + (1 - p) * torch.softmax(self.copy(x), dim=-1)
        return torch.log(mix)


def make_target():
    torch.manual_seed(0)
    x = torch.tensor([[0.0, 150.0, -150.0]]).repeat(8, 1) + 0.1 * torch.randn(8, 3)
    y = torch.ones(8, dtype=torch.long)
    return {
        "model": GatedMixtureHead(),
        "batch": ((x,), y),
        "loss_fn": lambda logp, target: F.nll_loss(logp, target),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.01),
    }

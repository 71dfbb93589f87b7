"""Count regression with a ReLU output head and a Poisson loss that logs the raw output."""
import torch
from torch import nn


def poisson_loss(output, labels):
    return (output - labels * torch.log(output)).mean()


def make_target():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1), nn.ReLU())
    x = torch.randn(64, 8)
    y = torch.poisson(torch.exp(0.5 * x[:, :1]))
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": poisson_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
    }

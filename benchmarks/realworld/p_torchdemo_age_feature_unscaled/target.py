"""Multinomial logistic regression on [age, is_female] -> brand, trained with SGD on raw features."""
import torch
from torch import nn


def make_data(n=600, seed=0):
    g = torch.Generator().manual_seed(seed)
    age = 31 + 6 * torch.randn(n, generator=g)
    female = (torch.rand(n, generator=g) < 0.5).float()
    logits = torch.stack([torch.zeros(n), 1.2 * (age - 31) / 6 + 1.5 * female - 0.7,
                          -1.2 * (age - 31) / 6 + 1.5 * (1 - female) - 0.7], 1)
    y = torch.distributions.Categorical(logits=logits * 2).sample()
    return torch.stack([age, female], 1), y


def make_target():
    torch.manual_seed(0)
    x, y = make_data()
    return {
        "model": nn.Linear(2, 3),
        "batch": (x[:64], y[:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=1e-2),
        "train_data": (x, y),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
    }

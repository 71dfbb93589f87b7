"""2-feature binary classifier: one small ReLU hidden layer, uniform(-0.05, 0.05) init, sigmoid output."""

import torch
from torch import nn

HIDDEN = 1


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(n, 2, generator=g) * 5.0 + 1.0  # both features are always positive (1..6)
    y = (x[:, 0] > x[:, 1]).float()
    return x, y


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(2, HIDDEN)
        self.out = nn.Linear(HIDDEN, 1)
        for layer in (self.hidden, self.out):
            nn.init.uniform_(layer.weight, -0.05, 0.05)
            nn.init.uniform_(layer.bias, -0.05, 0.05)

    def forward(self, x):
        return self.out(torch.relu(self.hidden(x))).squeeze(-1)


def loss_fn(logits, y):
    return nn.functional.binary_cross_entropy_with_logits(logits, y)


def metric_fn(logits, y):
    return ((logits > 0).float() == y).float().mean().item()


def make_target(seed=5):
    torch.manual_seed(seed)  # this seed draws both hidden weights negative
    x, y = make_data(512, seed=1)
    xv, yv = make_data(256, seed=2)
    return {
        "model": Net(),
        "batch": (x[:128], y[:128]),
        "loss_fn": loss_fn,
        "metric_fn": metric_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
        "train_data": (x, y),
        "val_data": (xv, yv),
    }

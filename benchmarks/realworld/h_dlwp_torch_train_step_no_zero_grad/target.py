"""A small MLP classifier trained with a hand-written train step, as in a custom Keras-style model on the torch backend."""

import torch
import torch.nn as nn
import torch.nn.functional as F

D, C = 20, 4


class SmallClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, C))

    def forward(self, x):
        return self.net(x)


def train_step(model, batch, optimizer, loss_fn):
    x, y = batch
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.detach()


def _samples(n, seed):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(D, C, generator=torch.Generator().manual_seed(0))
    x = torch.randn(n, D, generator=g)
    return x, (x @ w).argmax(1)


def make_target():
    torch.manual_seed(0)
    x, y = _samples(64, 1)
    tx, ty = _samples(2048, 2)
    return {
        "model": SmallClassifier(),
        "batch": (x, y),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.02, momentum=0.9),
        "train_step": train_step,
        "train_data": [(tx[i : i + 64], ty[i : i + 64]) for i in range(0, 2048, 64)],
        "val_data": _samples(512, 3),
    }

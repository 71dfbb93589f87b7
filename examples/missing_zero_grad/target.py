"""An MLP classifier whose training step no longer clears gradients."""

import torch
from torch import nn


def train_step(model, batch, optimizer, loss_fn):
    model.train()
    inputs, targets = batch
    loss = loss_fn(model(inputs), targets)
    loss.backward()
    optimizer.step()
    return loss.detach()


def make_target():
    torch.manual_seed(0)
    x = torch.randn(64, 10)
    y = (x[:, :3].sum(1) > 0).long()
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "train_step": train_step,
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9),
    }

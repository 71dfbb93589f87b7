"""A single fully connected layer fitted to two input/output pairs, as in a hardware-aware-training starter example."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def train_step(model, batch, optimizer, loss_fn):
    x, y = batch
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss


def _pairs():
    x = torch.tensor([[0.3, 0.1, 0.5, 0.2], [0.1, 0.4, 0.2, 0.3]])
    y = torch.tensor([[0.9, 0.4], [0.6, 0.2]])
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = _pairs()
    return {
        "model": nn.Linear(4, 2),
        "batch": (x, y),
        "loss_fn": lambda out, t: F.mse_loss(out, t),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.1),
        "train_step": train_step,
        "train_data": [(x, y)],
    }

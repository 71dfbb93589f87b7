"""Small atomic-energy regressor trained with gradient accumulation that sums micro-batch losses."""

import torch
import torch.nn as nn
import torch.nn.functional as F

ACC_FREQ = 8


def make_data(g, n):
    x = torch.randn(n, 16, generator=g)
    w = torch.randn(16, generator=torch.Generator().manual_seed(4))
    return x, (x @ w + 0.5 * (x[:, :4] ** 2).sum(1)).unsqueeze(-1)


def make_model():
    return nn.Sequential(nn.Linear(16, 64), nn.Tanh(), nn.Linear(64, 1))


def train_step(model, batch, optimizer, loss_fn):
    x, y = batch
    optimizer.zero_grad()
    for xs, ys in zip(x.chunk(ACC_FREQ), y.chunk(ACC_FREQ)):
        loss = loss_fn(model(xs), ys)
        loss.backward()
    optimizer.step()
    return loss


def make_target():
    torch.manual_seed(0)
    x, y = make_data(torch.Generator().manual_seed(0), 256)
    return {"model": make_model(), "batch": (x, y), "loss_fn": F.mse_loss, "train_step": train_step,
            "optimizer": lambda p: torch.optim.SGD(p, lr=0.08)}

"""A tabular regressor whose step drives a learning-rate schedule written in epochs."""

import torch
from torch import nn

EPOCHS = 30


def train_step(model, batch, optimizer, loss_fn):
    # One scheduler per optimizer, built on first use: decay by 10x every third of the run (in epochs).
    if not hasattr(optimizer, "schedule"):
        optimizer.schedule = torch.optim.lr_scheduler.StepLR(optimizer, step_size=EPOCHS // 3, gamma=0.1)
    model.train()
    inputs, targets = batch
    optimizer.zero_grad()
    loss = loss_fn(model(inputs), targets)
    loss.backward()
    optimizer.step()
    optimizer.schedule.step()  # every batch: a 10x decay every 10 batches of a 64-batch epoch
    return loss.detach()


def make_target():
    torch.manual_seed(0)
    x = torch.randn(4096, 12)
    y = x[:, :3].sum(1) - 0.5 * x[:, 3] * x[:, 4] + 0.1 * torch.randn(4096)
    model = nn.Sequential(nn.Linear(12, 64), nn.ReLU(), nn.Linear(64, 1))
    return {
        "model": model,
        "batch": (x[:64], y[:64]),
        "loss_fn": lambda out, y: nn.functional.mse_loss(out.squeeze(1), y),  # (B, 1) -> (B,) against (B,)
        "train_step": train_step,
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9),
        "train_data": (x, y),
    }

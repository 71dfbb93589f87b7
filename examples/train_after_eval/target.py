"""Training resumes after validation without switching the model back to training mode."""

import torch
from torch import nn


def evaluate(model, batch):
    model.eval()
    inputs, _ = batch
    with torch.no_grad():
        return model(inputs)


def train_step(model, batch, optimizer, loss_fn):
    inputs, targets = batch
    optimizer.zero_grad()
    loss = loss_fn(model(inputs), targets)
    loss.backward()
    optimizer.step()
    return loss.detach()


def make_target():
    torch.manual_seed(0)
    x = torch.randn(64, 10)
    y = (x[:, 0] > 0).long()
    model = nn.Sequential(nn.Linear(10, 128), nn.ReLU(), nn.Dropout(0.5), nn.Linear(128, 2))
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "eval_fn": evaluate,
        "train_step": train_step,
    }

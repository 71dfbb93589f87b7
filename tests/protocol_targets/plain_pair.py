"""Ordinary user code: `x, y = batch; model(x)` in train_step and eval_fn, a metric reading `.logits`,
an optimizer built by the model, and a DataLoader as train_data/val_data."""

from types import SimpleNamespace

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(10, 32), nn.Tanh(), nn.Linear(32, 3))

    def forward(self, x):
        return SimpleNamespace(logits=self.body(x))

    def configure_optimizers(self, lr):
        return torch.optim.AdamW(self.parameters(), lr=lr)


def loss_fn(out, y):
    return nn.functional.cross_entropy(out.logits, y)


def train_step(model, batch, optimizer, loss_fn):
    x, y = batch
    model.train()
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.detach()


def evaluate(model, batch):
    x, y = batch
    model.eval()
    with torch.no_grad():
        return model(x)


def accuracy(out, y):
    return (out.logits.argmax(-1) == y).float().mean()


def make_target():
    torch.manual_seed(0)
    x = torch.randn(256, 10)
    y = (x[:, :3].sum(1) > 0).long() + (x[:, 3] > 1).long()
    loader = DataLoader(TensorDataset(x[:192], y[:192]), batch_size=32)
    val = DataLoader(TensorDataset(x[192:], y[192:]), batch_size=32)
    return {"model": Net(), "batch": (x[:32], y[:32]), "loss_fn": loss_fn, "train_step": train_step,
            "eval_fn": evaluate, "metric_fn": accuracy, "train_data": loader, "val_data": val,
            "optimizer": lambda model: model.configure_optimizers(lr=3e-3)}

"""A classifier with batch norm and dropout whose evaluation routine never calls model.eval()."""

import torch
from torch import nn


def evaluate(model, batch):
    inputs, _ = batch
    with torch.no_grad():
        return model(inputs)


def make_target():
    torch.manual_seed(0)
    x = torch.randn(64, 10)
    y = (x[:, 0] > 0).long()
    model = nn.Sequential(nn.Linear(10, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Dropout(0.3), nn.Linear(64, 2))
    return {"model": model, "batch": (x, y), "loss_fn": nn.CrossEntropyLoss(), "eval_fn": evaluate}

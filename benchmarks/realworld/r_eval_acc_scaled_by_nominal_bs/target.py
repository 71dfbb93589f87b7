"""Small image classifier; the epoch accuracy is aggregated in evaluate() below."""

import torch
import torch.nn.functional as F
from torch import nn

BATCHSIZE = 64


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 3, 8, 8, generator=g)
    y = (x[:, 0].mean(dim=(1, 2)) > 0).long()
    return x, y


def evaluate(model, x, y, batchsize=BATCHSIZE):
    n = x.shape[0]
    sum_loss, sum_acc = 0.0, 0.0
    with torch.no_grad():
        for i in range(0, n, batchsize):
            xb, yb = x[i:i + batchsize], y[i:i + batchsize]
            out = model(xb)
            sum_loss += F.cross_entropy(out, yb).item() * batchsize
            sum_acc += (out.argmax(1) == yb).float().mean().item() * batchsize
    return sum_loss / n, sum_acc / n


def make_model():
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2), nn.Flatten(), nn.Linear(32, 2))


def make_target():
    torch.manual_seed(0)
    train_x, train_y = _data(1000, 1)
    val_x, val_y = _data(500, 2)
    return {
        "model": make_model(),
        "batch": (train_x[:BATCHSIZE], train_y[:BATCHSIZE]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "train_data": (train_x, train_y),
        "val_data": (val_x, val_y),
    }

"""Image-feature classifier evaluated by an accuracy routine that averages per-batch accuracies."""

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def accuracy(output, target):
    return (output.argmax(-1) == target).float().mean().item()


def evaluate(model, loader, metric=accuracy):
    model.eval()
    vals = []
    with torch.no_grad():
        for x, y in loader:
            vals.append(metric(model(x), y))
    return sum(vals) / len(vals)


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 20, generator=g)
    w = torch.randn(20, 3, generator=torch.Generator().manual_seed(99))
    y = (x @ w + 1.2 * torch.randn(n, 3, generator=g)).argmax(-1)
    return x, y


def make_target(batch_size=32):
    torch.manual_seed(0)
    xtr, ytr = _data(512, 1)
    xva, yva = _data(70, 2)
    model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 3))
    return {
        "model": model,
        "batch": (xtr[:64], ytr[:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
        "metric_fn": accuracy,
        "train_data": (xtr, ytr),
        "val_data": DataLoader(TensorDataset(xva, yva), batch_size=batch_size, shuffle=False),
    }

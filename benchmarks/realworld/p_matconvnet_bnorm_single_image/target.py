"""Small binary CNN whose batch-norm layers always normalise with the current batch's statistics."""
import torch
from torch import nn


def make_model():
    return nn.Sequential(
        nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8, track_running_stats=False), nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16, track_running_stats=False), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 2),
    )


def make_data(n, g):
    y = torch.randint(0, 2, (n,), generator=g)
    x = torch.randn(n, 1, 16, 16, generator=g) * 0.5
    x[y == 1, :, 4:12, 4:12] += 1.0
    return x, y


def predict(model, x):
    model.eval()
    with torch.no_grad():
        return model(x)


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    xtr, ytr = make_data(256, g)
    xva, yva = make_data(64, g)
    return {
        "model": make_model(),
        "batch": (xtr[:32], ytr[:32]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "eval_fn": predict,
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "train_data": (xtr, ytr),
        "val_data": (xva, yva),
    }

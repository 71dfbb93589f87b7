"""Small BN CNN; the test routine runs it in training mode so BN uses the test batch's statistics."""

import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.AdaptiveAvgPool2d(4),
                               nn.Flatten(), nn.Linear(128, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 3))

    def forward(self, x):
        return self.f(x)


def eval_fn(model, x):
    with torch.no_grad():
        return model(x)


def metric_fn(out, y):
    return (out.argmax(-1) == y).float().mean().item()


def _data(n, g):
    y = torch.randint(0, 3, (n,), generator=g)
    x = torch.randn(n, 1, 8, 8, generator=g) * 0.5
    x[:, :, : 3] += (y == 0).float().view(-1, 1, 1, 1) * 1.5
    x[:, :, 5:] += (y == 1).float().view(-1, 1, 1, 1) * 1.5
    x += 2.0  # inputs not centred: batch statistics matter
    return x, y


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    xtr, ytr = _data(256, g)
    xva, yva = _data(64, g)
    model = Net()
    return {"model": model, "batch": (xtr[:64], ytr[:64]), "loss_fn": nn.CrossEntropyLoss(), "eval_fn": eval_fn,
            "metric_fn": metric_fn, "train_data": (xtr, ytr), "val_data": (xva, yva)}

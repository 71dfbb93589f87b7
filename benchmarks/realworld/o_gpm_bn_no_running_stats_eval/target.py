"""Small conv net whose BatchNorm layers do not track running statistics; evaluated in eval mode."""

import torch
from torch import nn


def bn(c):
    return nn.BatchNorm2d(c, track_running_stats=False)


class Net(nn.Module):
    def __init__(self, n_cls=5):
        super().__init__()
        self.f = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), bn(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), bn(32), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.head = nn.Linear(32, n_cls)

    def forward(self, x):
        return self.head(self.f(x))


def make_data(n, seed, n_cls=5):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, n_cls, (n,), generator=g)
    base = torch.randn(n_cls, 3, 1, 1, generator=torch.Generator().manual_seed(100)) * 1.5
    x = base[y] + torch.randn(n, 3, 12, 12, generator=g)
    return x, y


def evaluate(model, x):
    model.eval()
    with torch.no_grad():
        return model(x)


def make_target():
    torch.manual_seed(0)
    x, y = make_data(64, 1)
    return {
        "model": Net(),
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.02, momentum=0.9),
        "eval_fn": evaluate,
        "metric_fn": lambda out, t: (out.argmax(-1) == t).float().mean().item(),
        "train_data": make_data(512, 2),
        "val_data": make_data(256, 3),
    }

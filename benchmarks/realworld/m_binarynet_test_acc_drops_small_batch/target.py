"""BinaryNet-style CNN whose batch norm layers keep no population statistics: at test time they normalise with the
statistics of whatever test batch is passed in. (Not an input of this case; kept with the case for reference.)"""

import torch
from torch import nn
import torch.nn.functional as F


def make_net():
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16, track_running_stats=False), nn.Hardtanh(),
        nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32, track_running_stats=False), nn.Hardtanh(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, 10),
    )


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 10, (n,), generator=g)
    proto = torch.linspace(-1, 1, 10)
    x = torch.randn(n, 3, 8, 8, generator=g) * 0.8
    x[:, 0] += proto[y].view(-1, 1, 1)
    x[:, 1, :4] += proto.flip(0)[y].view(-1, 1, 1)
    return x, y


def eval_fn(model, x):
    model.eval()
    with torch.no_grad():
        return model(x)


def make_target():
    torch.manual_seed(0)
    return {
        "model": make_net(),
        "batch": make_data(128, seed=1),
        "loss_fn": F.cross_entropy,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "eval_fn": eval_fn,
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "train_data": make_data(2048, seed=2),
        "val_data": make_data(512, seed=3),
    }

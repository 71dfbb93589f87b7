"""A client's small MLP classifier for a 10-class digit-like task, trained with plain SGD at the configured rate."""

import torch
import torch.nn as nn
import torch.nn.functional as F

LR = 2.0  # the configured local learning rate


def make_net():
    return nn.Sequential(nn.Linear(64, 100), nn.ReLU(), nn.Linear(100, 10))


def _digits(n, seed):
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(10, 64, generator=torch.Generator().manual_seed(7))
    y = torch.randint(0, 10, (n,), generator=g)
    x = 3.0 * protos[y] + torch.randn(n, 64, generator=g)
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = _digits(20, 1)
    return {
        "model": make_net(),
        "batch": (x, y),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=LR),
        "train_data": _digits(400, 2),
        "val_data": _digits(400, 3),
    }

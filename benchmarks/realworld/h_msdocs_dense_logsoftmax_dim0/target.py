"""Small dense classifier ending in LogSoftmax, trained with NLLLoss on 10-class flattened "images"."""

import torch
import torch.nn as nn

D, C = 64, 10


def build_net():
    return nn.Sequential(
        nn.Linear(D, 100),
        nn.ReLU(),
        nn.Linear(100, C),
        nn.LogSoftmax(dim=0),
    )


def _digits(n, seed):
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(C, D, generator=torch.Generator().manual_seed(0))
    y = torch.randint(0, C, (n,), generator=g)
    return protos[y] + 2.0 * torch.randn(n, D, generator=g), y


def make_target():
    torch.manual_seed(0)
    x, y = _digits(64, 1)
    return {
        "model": build_net(),
        "batch": (x, y),
        "loss_fn": nn.NLLLoss(),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.05),
        "train_data": _digits(2048, 2),
        "val_data": _digits(512, 3),
    }

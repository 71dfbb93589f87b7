"""Retraining only the final layer of an image classifier on cached bottleneck features, with plain SGD at lr 0.01."""

import torch
import torch.nn as nn

N_CLASSES, BOTTLENECK = 10, 256


def make_bottlenecks(g, n=512):
    centers = torch.randn(N_CLASSES, BOTTLENECK, generator=torch.Generator().manual_seed(3)) * 0.08
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    x = torch.relu(centers[y] + 0.05 * torch.randn(n, BOTTLENECK, generator=g))  # small post-ReLU activations
    return x, y


def make_target():
    torch.manual_seed(0)
    model = nn.Linear(BOTTLENECK, N_CLASSES)
    nn.init.zeros_(model.weight)
    nn.init.zeros_(model.bias)
    x, y = make_bottlenecks(torch.Generator().manual_seed(0))
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.01),
        "metric_fn": lambda out, t: float((out.argmax(1) == t).float().mean()),
    }

"""Fashion-MNIST-like MLP whose inputs are raw 0-255 pixel intensities (never divided by 255)."""

import torch
from torch import nn

_PG = torch.Generator().manual_seed(123)
_BASE = torch.rand(1, 784, generator=_PG)
_PROTOS = _BASE + 0.15 * torch.randn(10, 784, generator=_PG)


def make_images(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 10, (n,), generator=g)
    brightness = 0.6 + 0.8 * torch.rand(n, 1, generator=g)
    x = _PROTOS[y] * brightness + 0.25 * torch.randn(n, 784, generator=g)
    return (x.clamp(0, 1) * 255).round(), y  # uint8-style pixels, as loaded from the dataset


def make_model():
    model = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 10))
    for layer in model:
        if isinstance(layer, nn.Linear):
            nn.init.xavier_uniform_(layer.weight)
            nn.init.zeros_(layer.bias)
    return model


def make_target():
    torch.manual_seed(0)
    x, y = make_images(1200, 0)
    xv, yv = make_images(400, 1)
    return {
        "model": make_model(),
        "batch": (x[:64], y[:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "train_data": (x, y),
        "val_data": (xv, yv),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
    }

"""A sensor classifier whose training features come from a processed-data cache keyed by dataset name."""

import torch
from torch import nn

CACHE: dict[str, tuple[torch.Tensor, torch.Tensor]] = {}


def raw(n: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    x = 200.0 + 35.0 * torch.randn(n, 8, generator=g)  # raw readings, (n, 8)
    y = ((x[:, 0] - 200.0) - 0.7 * (x[:, 3] - 200.0) > 0).long()
    return x, y


def standardize(x: torch.Tensor) -> torch.Tensor:
    return (x - 200.0) / 35.0


def load(name: str, n: int, seed: int, steps: list) -> tuple[torch.Tensor, torch.Tensor]:
    if name in CACHE:  # the key is the name only: a pipeline changed since the first run is never re-applied
        return CACHE[name]
    x, y = raw(n, seed)
    for step in steps:
        x = step(x)
    CACHE[name] = (x, y)
    return x, y


def make_target():
    torch.manual_seed(0)
    load("sensors-train", 1024, 1, steps=[])  # written by last week's run, before standardisation existed
    train_x, train_y = load("sensors-train", 1024, 1, steps=[standardize])
    val_x, val_y = load("sensors-val", 256, 2, steps=[standardize])  # first processed today
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2))
    return {
        "model": model,
        "batch": (train_x[:64], train_y[:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "train_data": (train_x, train_y),
        "val_data": (val_x, val_y),
    }

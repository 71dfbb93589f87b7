"""A wide classifier trained on a small, noisy image-like dataset (few samples per class)."""
import torch
import torch.nn as nn


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(10, 3 * 8 * 8, generator=torch.Generator().manual_seed(123))
    y = torch.randint(0, 10, (n,), generator=g)
    x = 0.12 * protos[y] + torch.randn(n, 3 * 8 * 8, generator=g)
    return x.view(n, 3, 8, 8), y


def make_target():
    torch.manual_seed(0)
    train = _data(100, 1)
    val = _data(400, 2)
    model = nn.Sequential(nn.Flatten(), nn.Linear(192, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
    return {
        "model": model,
        "batch": (train[0][:32], train[1][:32]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "train_data": train,
        "val_data": val,
    }

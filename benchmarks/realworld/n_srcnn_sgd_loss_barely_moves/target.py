"""SRCNN (9-1-5 conv) trained with plain SGD at a tiny learning rate."""

import torch
from torch import nn


def make_data(n=8, seed=0):
    g = torch.Generator().manual_seed(seed)
    hr = torch.nn.functional.avg_pool2d(torch.rand(n, 1, 28, 28, generator=g), 3, 1, 1)
    lr = torch.nn.functional.interpolate(torch.nn.functional.avg_pool2d(hr, 2), scale_factor=2, mode="bilinear")
    return lr[..., 6:-6, 6:-6].contiguous(), hr[..., 6:-6, 6:-6].contiguous()


def model_fn():
    return nn.Sequential(nn.Conv2d(1, 32, 9, padding=4), nn.ReLU(), nn.Conv2d(32, 16, 1), nn.ReLU(),
                         nn.Conv2d(16, 1, 5, padding=2))


def make_target():
    torch.manual_seed(0)
    x, y = make_data()
    return {
        "model": model_fn(),
        "batch": (x, y),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=1e-5),
        "train_data": (x, y),
    }

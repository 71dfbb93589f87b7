"""A shallow CNN on single-channel X-ray-like images whose pixels span [-1024, 1024], as the dataset hands them out."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def make_net():
    return nn.Sequential(
        nn.Conv2d(1, 8, 3, padding=1), nn.LeakyReLU(0.1), nn.MaxPool2d(2),
        nn.Conv2d(8, 16, 3, padding=1), nn.LeakyReLU(0.1), nn.Flatten(),
        nn.Linear(16 * 8 * 8, 2),
    )


def xrays(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 2, (n,), generator=g)
    img = torch.rand(n, 1, 16, 16, generator=g)
    img[:, :, 4:12, 4:12] += 0.5 * y.view(-1, 1, 1, 1)  # opacity in the centre for the positive class
    img = img / img.amax(dim=(1, 2, 3), keepdim=True)
    return img * 2048 - 1024, y  # the dataset's fixed [-1024, 1024] range


def make_target():
    torch.manual_seed(0)
    return {
        "model": make_net(),
        "batch": xrays(16, 1),
        "loss_fn": F.cross_entropy,
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.01, momentum=0.9),
        "train_data": xrays(256, 2),
        "val_data": xrays(256, 3),
    }

"""Chapter-2 style end-to-end classifier: a dense net fed raw 0..255 pixel intensities of 28x28 digit-like images."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES, SIDE = 10, 28


def make_images(n, g):
    """Ten blurry stroke templates plus noise, stored as uint8-range intensities like the raw dataset."""
    tg = torch.Generator().manual_seed(123)
    templates = (torch.rand(N_CLASSES, SIDE * SIDE, generator=tg) > 0.75).float()
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    x = templates[y] * 200.0 + torch.rand(n, SIDE * SIDE, generator=g) * 55.0
    return x.round(), y


def make_model():
    return nn.Sequential(nn.Linear(SIDE * SIDE, 128), nn.ReLU(), nn.Linear(128, N_CLASSES))


def accuracy(logits, y):
    return (logits.argmax(-1) == y).float().mean().item()


def make_target():
    torch.manual_seed(0)
    x, y = make_images(256, torch.Generator().manual_seed(0))
    return {
        "model": make_model(),
        "batch": (x, y),  # fed as-is: no division by 255
        "loss_fn": F.cross_entropy,
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.01),
        "metric_fn": accuracy,
    }

"""Noisy classifier trained with SGD under a cosine learning-rate schedule planned for 60 epochs; the
validation metric is flat while the learning rate is still high and improves as it anneals."""

import torch
import torch.nn as nn
import torch.nn.functional as F

EPOCHS = 60


def data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 20, generator=g)
    w = torch.randn(20, 7, generator=torch.Generator().manual_seed(0))
    y = (x @ w + 0.5 * torch.randn(n, 7, generator=g)).argmax(1)
    return x, y


def make_model():
    return nn.Sequential(nn.Linear(20, 128), nn.ReLU(), nn.Linear(128, 7))


def make_optimizer(params):
    return torch.optim.SGD(params, lr=0.5, momentum=0.9)


def make_scheduler(opt, steps_per_epoch):
    return torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=EPOCHS * steps_per_epoch)


def make_target():
    torch.manual_seed(0)
    x, y = data(2000, 1)
    return {
        "model": make_model(),
        "batch": (x[:50], y[:50]),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": make_optimizer,
        "train_data": (x, y),
        "val_data": data(1000, 2),
    }

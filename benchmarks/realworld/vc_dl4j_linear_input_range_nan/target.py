import torch
import torch.nn as nn


def make_data(scale=1.0, n=1000):
    x = scale * torch.arange(n, dtype=torch.float32).unsqueeze(1)
    y = 15.0 + 5.0 * x
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = make_data(scale=1.0)
    idx = torch.randperm(len(x))[:64]
    return {
        "model": nn.Linear(1, 1),
        "batch": (x[idx], y[idx]),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9, nesterov=True),
        "train_data": (x, y),
    }

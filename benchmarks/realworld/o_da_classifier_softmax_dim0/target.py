"""A classifier head whose softmax normalises over dim=0 (the batch) of an N x C output; the loss is NLL on its log."""

import torch
from torch import nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self, d_in=64, n_classes=31):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(d_in, 128), nn.ReLU())
        self.fc = nn.Linear(128, n_classes)
        self.softmax = nn.Softmax(dim=0)

    def forward(self, x):
        return self.softmax(self.fc(self.features(x)))


def nll_of_probs(probs, y):
    return F.nll_loss(torch.log(probs + 1e-8), y)


def make_data(n, seed):
    centers = torch.randn(31, 64, generator=torch.Generator().manual_seed(42)) * 1.5
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 31, (n,), generator=g)
    return centers[y] + torch.randn(n, 64, generator=g), y


def make_target():
    torch.manual_seed(0)
    x, y = make_data(512, 1)
    xv, yv = make_data(256, 2)
    return {
        "model": Net(),
        "batch": (x[:32], y[:32]),
        "loss_fn": nll_of_probs,
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "train_data": (x, y),
        "val_data": (xv, yv),
    }

"""LeNet-style classifier on 28x28 digit-like images, trained with plain SGD at the raised default rate."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5, padding=2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 10)

    def forward(self, x):
        x = F.max_pool2d(F.leaky_relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.leaky_relu(self.conv2(x)), 2)
        return self.fc2(F.leaky_relu(self.fc1(x.flatten(1))))


def _digits(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 10, (n,), generator=g)
    protos = torch.rand(10, 1, 28, 28, generator=torch.Generator().manual_seed(11))
    x = protos[y] + 0.3 * torch.rand(n, 1, 28, 28, generator=g)
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = _digits(32, 1)
    return {
        "model": LeNet(),
        "batch": (x, y),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.5, momentum=0.9),
        "train_data": _digits(512, 2),
        "val_data": _digits(128, 3),
    }

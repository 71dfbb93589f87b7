"""Deep reversible (additive coupling) classifier trained with plain SGD and no gradient clipping."""

import torch
from torch import nn


class Coupling(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, d))
        self.g = nn.Sequential(nn.Linear(d, d), nn.ReLU(), nn.Linear(d, d))
        for m in list(self.f) + list(self.g):
            if isinstance(m, nn.Linear):
                nn.init.normal_(m.weight, std=0.7 / m.weight.shape[1] ** 0.5)
                nn.init.zeros_(m.bias)

    def forward(self, x1, x2):
        y1 = x1 + self.f(x2)
        y2 = x2 + self.g(y1)
        return y1, y2


class RevNet(nn.Module):
    def __init__(self, d_in=48, width=32, depth=18, classes=10):
        super().__init__()
        self.stem = nn.Linear(d_in, 2 * width)
        self.blocks = nn.ModuleList(Coupling(width) for _ in range(depth))
        self.head = nn.Linear(2 * width, classes)

    def forward(self, x):
        h = self.stem(x)
        x1, x2 = h.chunk(2, dim=1)
        for b in self.blocks:
            x1, x2 = b(x1, x2)
        return self.head(torch.cat([x1, x2], 1))


def make_data(n=512, seed=0, d=48, classes=10):
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(classes, d, generator=g)
    y = torch.randint(0, classes, (n,), generator=g)
    x = protos[y] + 0.5 * torch.randn(n, d, generator=g)
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = make_data()
    return {
        "model": RevNet(),
        "batch": (x[:128], y[:128]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, weight_decay=1e-4),
        "train_data": (x, y),
    }

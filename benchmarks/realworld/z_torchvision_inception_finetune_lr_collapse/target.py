"""Fine-tuning a pretrained classifier with a from-scratch learning rate: precision starts high, then collapses."""

import torch
import torch.nn as nn


def make_data(seed, n=512):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 32, generator=g)
    w = torch.randn(32, 5, generator=torch.Generator().manual_seed(9))
    return x, (x @ w).argmax(1)


def pretrained_model():
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 5))
    opt = torch.optim.Adam(m.parameters(), lr=3e-3)
    x, y = make_data(0)
    for _ in range(150):
        opt.zero_grad()
        nn.functional.cross_entropy(m(x), y).backward()
        opt.step()
    return m


def make_target(lr=30.0):
    return {"model": pretrained_model(), "batch": make_data(1, 128), "loss_fn": nn.CrossEntropyLoss(),
            "optimizer": lambda p: torch.optim.SGD(p, lr=lr, momentum=0.9)}

"""MLP with a hand-written batch norm whose training statistics are summed over every input seen so far."""

import torch
from torch import nn


class MyBatchNorm(nn.Module):
    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.gamma = nn.Parameter(torch.ones(d))
        self.beta = nn.Parameter(torch.zeros(d))
        self.eps = eps
        self.register_buffer("count", torch.zeros(()))
        self.register_buffer("s1", torch.zeros(d))
        self.register_buffer("s2", torch.zeros(d))

    def forward(self, x):
        if self.training:
            # running sums over everything seen since construction
            self.count += x.shape[0]
            self.s1 += x.detach().sum(0)
            self.s2 += (x.detach() ** 2).sum(0)
        mean = self.s1 / self.count.clamp(min=1)
        var = (self.s2 / self.count.clamp(min=1) - mean ** 2).clamp(min=0)
        return self.gamma * (x - mean) / torch.sqrt(var + self.eps) + self.beta


class Net(nn.Module):
    def __init__(self, d_in=10, hidden=64):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.bn = MyBatchNorm(hidden)
        self.fc2 = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.fc2(torch.relu(self.bn(self.fc1(x))))


def data(n=2048):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(n, 10, generator=g)
    y = (torch.sin(2 * x[:, :1]) + x[:, 1:2] * x[:, 2:3])
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = data()
    return {
        "model": Net(),
        "batch": (x[:64], y[:64]),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
        "train_data": (x[:1536], y[:1536]),
        "val_data": (x[1536:], y[1536:]),
    }

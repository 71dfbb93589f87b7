"""Fully connected regressor with many logistic hidden layers, trained with plain SGD."""
import torch
import torch.nn as nn


class DeepLogisticNet(nn.Module):
    def __init__(self, n_in=8, width=32, depth=8, n_out=1):
        super().__init__()
        layers, d = [], n_in
        for _ in range(depth):
            layers += [nn.Linear(d, width), nn.Sigmoid()]
            d = width
        layers.append(nn.Linear(d, n_out))
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)


def make_data(n=256, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(n, 8, generator=g) * 2 - 1
    y = (torch.sin(3 * x[:, :1]) + x[:, 1:2] * x[:, 2:3] - 0.5 * x[:, 3:4] ** 2)
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = make_data()
    xv, yv = make_data(seed=1)
    return {
        "model": DeepLogisticNet(),
        "batch": (x, y),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.1),
        "train_data": (x, y),
        "val_data": (xv, yv),
    }

"""Federated-learning MLP baseline (784-200-10 style, here 64-64-10) with SGD and CrossEntropyLoss."""

import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self, dim_in=64, dim_hidden=64, dim_out=10):
        super().__init__()
        self.layer_input = nn.Linear(dim_in, dim_hidden)
        self.relu = nn.ReLU()
        self.dropout = nn.Dropout()
        self.layer_hidden = nn.Linear(dim_hidden, dim_out)
        self.softmax = nn.Softmax(dim=1)

    def forward(self, x):
        x = x.view(-1, x.shape[1] * x.shape[-2] * x.shape[-1])
        x = self.layer_input(x)
        x = self.dropout(x)
        x = self.relu(x)
        x = self.layer_hidden(x)
        return self.softmax(x)


def _digits(n, seed):
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(10, 1, 8, 8, generator=torch.Generator().manual_seed(5))
    y = torch.randint(0, 10, (n,), generator=g)
    return protos[y] + 1.6 * torch.randn(n, 1, 8, 8, generator=g), y


def make_target():
    torch.manual_seed(0)
    return {
        "model": MLP(),
        "batch": _digits(64, 1),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.05, momentum=0.5),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "train_data": _digits(1024, 2),
        "val_data": _digits(512, 3),
    }

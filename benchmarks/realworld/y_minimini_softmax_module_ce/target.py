"""Multinomial logistic regression built as Sequential(Linear, Softmax) and trained with CrossEntropyLoss."""

import torch
import torch.nn as nn

D, K, N = 64, 10, 1000


def build_model(softmax_layer=True):
    model = nn.Sequential()
    model.add_module("linear", nn.Linear(D, K, bias=False))
    if softmax_layer:
        model.add_module("softmax", nn.Softmax(dim=1))
    return model


def make_data(n=N, seed=0):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(K, D, generator=torch.Generator().manual_seed(42)) * 0.6
    y = torch.randint(0, K, (n,), generator=g)
    x = centers[y] + torch.randn(n, D, generator=g)
    return x, y


def accuracy(out, y):
    return (out.argmax(-1) == y).float().mean().item()


def make_target():
    torch.manual_seed(0)
    x, y = make_data()
    return {
        "model": build_model(True),
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9),
        "metric_fn": accuracy,
    }

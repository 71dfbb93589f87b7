"""Domain-generalisation style classifier with BatchNorm: trained on source-domain features, test accuracy on a
held-out (shifted) domain is computed inside the training loop by get_test_accuracy()."""

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(16, 64), nn.BatchNorm1d(64), nn.ReLU(),
            nn.Linear(64, 64), nn.BatchNorm1d(64), nn.ReLU(),
        )
        self.fc = nn.Linear(64, 2)

    def forward(self, x):
        return self.fc(self.body(x))


def domain(n, seed, shift=0.0, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    w = torch.Generator().manual_seed(7)
    direction = torch.randn(16, generator=w)
    y = torch.randint(0, 2, (n,), generator=g)
    unit = direction / direction.norm()
    x = torch.randn(n, 16, generator=g) + (2 * y - 1).float()[:, None] * 3.0 * unit
    return x * scale + shift * unit, y  # the held-out domain is offset along the class direction


def get_test_accuracy(model, x):
    with torch.no_grad():
        return model(x)


def accuracy(out, y):
    return (out.argmax(1) == y).float().mean().item()


def train_step(model, batch, optimizer, loss_fn):
    model.train()
    x, y = batch
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss


def make_target():
    torch.manual_seed(0)
    return {
        "model": Net(),
        "batch": domain(64, 1),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.05, momentum=0.9),
        "train_step": train_step,
        "eval_fn": get_test_accuracy,
        "metric_fn": accuracy,
        "train_data": domain(512, 2),
        "val_data": domain(256, 3, shift=6.0, scale=1.5),
    }

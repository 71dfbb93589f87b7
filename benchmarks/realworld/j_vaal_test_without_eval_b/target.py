"""A small conv classifier with BatchNorm and Dropout; the user's eval routine runs it on the test set in small batches."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class TaskNet(nn.Module):
    def __init__(self, c=12, n_classes=4):
        super().__init__()
        self.conv1 = nn.Conv2d(1, c, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(c)
        self.drop = nn.Dropout(0.5)
        self.fc = nn.Linear(c, n_classes)

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        h = F.relu(self.bn2(self.conv2(h)))
        return self.fc(self.drop(h.mean((2, 3))))


def images(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 4, (n,), generator=g)
    x = 0.8 * torch.randn(n, 1, 8, 8, generator=g)
    x[y == 0, :, :4] += 1.0
    x[y == 1, :, 4:] += 1.0
    x[y == 2, :, :, :4] += 1.0
    x[y == 3] -= 0.7
    return x, y


def evaluate(model, batch):
    """The solver's test(): no mode switch, small test batches."""
    x = batch[0] if isinstance(batch, (tuple, list)) else batch
    with torch.no_grad():
        return torch.cat([model(x[i : i + 4]) for i in range(0, len(x), 4)])


def make_target():
    torch.manual_seed(0)
    return {
        "model": TaskNet(),
        "batch": images(32, 1),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "eval_fn": evaluate,
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "train_data": images(512, 2),
        "val_data": images(256, 3),
    }

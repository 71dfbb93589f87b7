"""Penguin species classifier (4 scaled body measurements -> 3 species), a small fully connected network trained
with CrossEntropyLoss, as in a beginner course notebook."""

import torch
import torch.nn as nn


class PenguinNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 10)
        self.fc2 = nn.Linear(10, 10)
        self.fc3 = nn.Linear(10, 3)

    def forward(self, x):
        x = torch.relu(self.fc1(x))
        x = torch.relu(self.fc2(x))
        return torch.softmax(self.fc3(x), dim=1)


def penguins(n, seed):
    g = torch.Generator().manual_seed(seed)
    centres = torch.tensor([[-1.0, 0.8, -0.7, -0.6], [0.9, 0.7, -0.2, -0.4], [0.2, -1.1, 1.2, 1.3]])
    y = torch.randint(0, 3, (n,), generator=g)
    x = centres[y] + 0.35 * torch.randn(n, 4, generator=g)
    return x, y


def accuracy(out, y):
    return (out.argmax(1) == y).float().mean().item()


def make_target():
    torch.manual_seed(0)
    return {
        "model": PenguinNet(),
        "batch": penguins(50, 1),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=0.001),
        "metric_fn": accuracy,
        "train_data": penguins(240, 2),
        "val_data": penguins(100, 3),
    }

"""Small BN conv net whose in-training validation routine never leaves training mode."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1, stride=2)
        self.bn2 = nn.BatchNorm2d(32)
        self.fc = nn.Linear(32, 4)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.relu(self.bn2(self.conv2(x)))
        return self.fc(x.mean((2, 3)))


def make_data(g, n):
    y = torch.randint(0, 4, (n,), generator=g)
    x = torch.randn(n, 3, 8, 8, generator=g)
    x[torch.arange(n), y % 3] += 1.5 * (1 + (y // 3)).float().view(-1, 1, 1)
    return x * 2 + 3, y


def validate(model, batch):
    """Clean accuracy on a validation batch (called every few hundred steps)."""
    x, y = batch
    with torch.no_grad():
        return (model(x).argmax(1) == y).float().mean().item()


def eval_fn(model, x):
    with torch.no_grad():
        return model(x)


def make_target():
    torch.manual_seed(0)
    x, y = make_data(torch.Generator().manual_seed(0), 64)
    return {"model": Net(), "batch": (x, y), "loss_fn": nn.CrossEntropyLoss(), "eval_fn": eval_fn,
            "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
            "optimizer": lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9)}

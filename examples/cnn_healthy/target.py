"""A small CNN with batch norm and dropout, its own train step, evaluation, metric and data splits."""

import torch
from torch import nn


class SmallCNN(nn.Module):
    def __init__(self, classes: int = 4) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1),
            nn.BatchNorm2d(16),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1),
            nn.BatchNorm2d(32),
            nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(32, classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.classifier(self.features(x))  # (B, classes)


def train_step(model, batch, optimizer, loss_fn):
    model.train()
    inputs, targets = batch
    optimizer.zero_grad(set_to_none=True)
    loss = loss_fn(model(inputs), targets)
    loss.backward()
    optimizer.step()
    return loss.detach()


def evaluate(model, batch):
    model.eval()
    inputs, _ = batch
    with torch.no_grad():
        return model(inputs)


def accuracy(logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return (logits.argmax(dim=1) == y).float().mean()


def make_data(n: int, seed: int):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 4, (n,), generator=g)
    x = torch.randn(n, 3, 16, 16, generator=g) * 0.5
    for c in range(4):  # each class brightens one quadrant
        rows, cols = divmod(c, 2)
        x[y == c, :, rows * 8 : (rows + 1) * 8, cols * 8 : (cols + 1) * 8] += 1.0
    return x, y


def make_target():
    torch.manual_seed(0)
    train, val = make_data(512, seed=1), make_data(128, seed=2)
    return {
        "model": SmallCNN(),
        "batch": (train[0][:32], train[1][:32]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "train_step": train_step,
        "eval_fn": evaluate,
        "metric_fn": accuracy,
        "train_data": train,
        "val_data": val,
    }

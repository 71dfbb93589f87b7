"""DANN-style digit classifier: feature extractor + label classifier ending in nn.Softmax, trained with CrossEntropyLoss."""

import torch
import torch.nn as nn

N_CLASSES = 10


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.label_head = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, N_CLASSES), nn.Softmax(dim=1))

    def forward(self, x):
        return self.label_head(self.features(x))


def _digits(n, seed):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(N_CLASSES, 32, generator=torch.Generator().manual_seed(0))
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    return centers[y] + 0.9 * torch.randn(n, 32, generator=g), y


def make_target():
    torch.manual_seed(0)
    x, y = _digits(64, 1)
    return {
        "model": Classifier(),
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.01, momentum=0.9),
        "train_data": _digits(2048, 2),
        "val_data": _digits(512, 3),
    }

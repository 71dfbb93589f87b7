"""Small spectrogram CNN for 10 sound classes whose forward ends in Softmax, trained with CrossEntropyLoss."""

import torch
from torch import nn


class SoundCNN(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.flatten = nn.Flatten()
        self.linear = nn.Linear(16 * 4 * 4, n_classes)
        self.softmax = nn.Softmax(dim=1)

    def forward(self, x):
        logits = self.linear(self.flatten(self.features(x)))
        return self.softmax(logits)


def make_spectrograms(n, seed):
    g = torch.Generator().manual_seed(seed)
    pg = torch.Generator().manual_seed(7)
    protos = torch.randn(10, 1, 16, 16, generator=pg)
    y = torch.randint(0, 10, (n,), generator=g)
    return protos[y] + 0.5 * torch.randn(n, 1, 16, 16, generator=g), y


def make_target():
    torch.manual_seed(0)
    x, y = make_spectrograms(384, 0)
    xv, yv = make_spectrograms(256, 1)
    return {
        "model": SoundCNN(),
        "batch": (x[:64], y[:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "train_data": (x, y),
        "val_data": (xv, yv),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
    }

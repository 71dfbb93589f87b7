"""An LSTM sequence classifier over float features (batch-first)."""

import torch
from torch import nn


class LSTMClassifier(nn.Module):
    def __init__(self, features: int = 6, hidden: int = 32, classes: int = 3) -> None:
        super().__init__()
        self.lstm = nn.LSTM(features, hidden, batch_first=True)
        self.head = nn.Linear(hidden, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out, _ = self.lstm(x)  # (B, T, H)
        return self.head(out[:, -1])  # (B, classes)


def make_target():
    torch.manual_seed(0)
    x = torch.randn(32, 20, 6)
    y = (x[:, :, 0].mean(1) > 0).long() + (x[:, :, 1].mean(1) > 0.2).long()
    return {
        "model": LSTMClassifier(),
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
    }

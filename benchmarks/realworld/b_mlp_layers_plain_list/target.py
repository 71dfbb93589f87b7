"""Ranking MLP whose hidden layers live in a Python list."""
import torch
import torch.nn as nn


class RankingMLP(nn.Module):
    def __init__(self, d_in=32, hidden=(64, 64), d_out=1):
        super().__init__()
        layers = []
        prev = d_in
        for h in hidden:
            layers.append(nn.Linear(prev, h))
            prev = h
        self._layers = layers  # BUG: should be nn.ModuleList(layers)
        self.head = nn.Linear(prev, d_out)

    def forward(self, x):
        for layer in self._layers:
            x = torch.relu(layer(x))
        return self.head(x)


def make_target():
    torch.manual_seed(0)
    x = torch.randn(64, 32)
    y = (torch.sin(x[:, :4]).sum(dim=1, keepdim=True) > 0).float()
    return {
        "model": RankingMLP(),
        "batch": (x, y),
        "loss_fn": nn.BCEWithLogitsLoss(),
    }

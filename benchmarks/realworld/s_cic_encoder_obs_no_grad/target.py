"""Pixel encoder + projection head; the encoder call sits inside torch.no_grad() in forward."""
import torch
from torch import nn
import torch.nn.functional as F


class Agent(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.ReLU(), nn.Conv2d(8, 8, 3, stride=2), nn.ReLU(), nn.Flatten())
        self.head = nn.Sequential(nn.Linear(8 * 3 * 3, 32), nn.ReLU(), nn.Linear(32, 5))

    def forward(self, obs):
        with torch.no_grad():
            h = self.encoder(obs)
        return self.head(h)


def make_target():
    torch.manual_seed(0)
    obs = torch.randn(16, 3, 16, 16)
    y = (obs[:, 0, :8, :8].mean((1, 2)) > 0).long() + 2 * (obs[:, 1].mean((1, 2)) > 0).long()
    return {
        "model": Agent(),
        "batch": (obs, y),
        "loss_fn": F.cross_entropy,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
    }

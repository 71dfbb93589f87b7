"""Small CNN fed image observations as float32 pixel values 0..255 (no scaling), trained to pick one of 3 actions."""

import torch
import torch.nn as nn


class CnnExtractor(nn.Module):
    def __init__(self, n_actions=3):
        super().__init__()
        self.cnn = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.ReLU(), nn.Conv2d(8, 8, 3, stride=2), nn.ReLU(),
                                 nn.Flatten())
        self.head = nn.Linear(8 * 3 * 3, n_actions)

    def forward(self, obs):
        return self.head(self.cnn(obs))


def observations(n, seed):
    """Which third of the frame holds the bright object decides the action."""
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 3, (n,), generator=g)
    obs = torch.rand(n, 3, 16, 16, generator=g) * 120
    for k in range(3):
        obs[y == k, :, :, 5 * k : 5 * k + 5] += 120
    return obs, y  # float32, 0..255


def make_target():
    torch.manual_seed(0)
    return {
        "model": CnnExtractor(),
        "batch": observations(32, 1),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=5e-2),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "train_data": observations(512, 2),
        "val_data": observations(256, 3),
    }

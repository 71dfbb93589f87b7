"""MLP used as a function approximator for a strictly positive policy function (here: f(x) = x).

A ReLU on the output layer is used to keep the predictions non-negative.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

SEED = 0


class PolicyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.ModuleList([nn.Linear(1, 100), nn.Linear(100, 75), nn.Linear(75, 50), nn.Linear(50, 25)])
        self.output_layer = nn.Linear(25, 1)

    def forward(self, x):
        for layer in self.hidden:
            x = F.relu(layer(x))
        return F.relu(self.output_layer(x))      # outputs must be positive


def make_data(n=64):
    x = torch.linspace(1.07312, 20.38941, n).unsqueeze(1)
    return x, x.clone()


def make_target():
    torch.manual_seed(SEED)
    x, y = make_data()
    return {
        "model": PolicyNet(),
        "batch": (x, y),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "train_data": (x, y),
    }

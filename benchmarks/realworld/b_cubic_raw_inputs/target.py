"""1-50-1 MLP regressing y = x**3 on raw (unscaled) inputs and targets."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Network(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(1, 50)
        self.fc2 = nn.Linear(50, 1)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def raw_data(n=64):
    x = torch.linspace(1, 4000, n).unsqueeze(1)  # BUG (data): no input scaling
    y = x ** 3  # targets up to 6.4e10, also unscaled
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = raw_data()
    return {
        "model": Network(),
        "batch": (x, y),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": (x, y),
    }

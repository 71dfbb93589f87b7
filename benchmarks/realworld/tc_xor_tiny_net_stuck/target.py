"""Two-input XOR gate learned by a small Linear/Sigmoid network with MSE and plain SGD."""
import torch
import torch.nn as nn


class XorNet(nn.Module):
    def __init__(self, hidden=2):
        super().__init__()
        self.x1 = nn.Linear(2, hidden)
        self.x2 = nn.Linear(hidden, 1)

    def forward(self, x):
        return torch.sigmoid(self.x2(torch.sigmoid(self.x1(x))))


X = torch.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
Y = torch.tensor([[0.0], [1.0], [1.0], [0.0]])


def make_target():
    torch.manual_seed(0)
    return {
        "model": XorNet(),
        "batch": (X, Y),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.1),
        "train_data": (X, Y),
        "val_data": (X, Y),
    }

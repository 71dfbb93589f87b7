import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 2)

    def forward(self, x):
        return self.fc(x)  # the batch has 5 features: shape error


def make_target():
    return {"model": Net(), "batch": (torch.randn(4, 5), torch.randn(4, 2))}

import torch
from torch import nn


def make_target():
    return {"model": nn.Linear(2, 2), "batch": (torch.randn(4, 2), torch.randn(4, 2)), "loss": nn.MSELoss()}

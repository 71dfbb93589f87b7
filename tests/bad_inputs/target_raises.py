import torch
from torch import nn


def make_target():
    data = torch.load("no/such/file.pt")
    return {"model": nn.Linear(2, 2), "batch": (data, data)}

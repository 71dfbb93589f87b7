import torch
from torch import nn


def make_target():
    return {"model": nn.Linear(2, 2), "batch": (["the cat", "a dog"], torch.zeros(2))}

"""Crashes before its first training step (a typo in the data path)."""

import torch
from torch import nn

model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
data = torch.load("no_such_file.pt")  # raises FileNotFoundError

"""Calls sys.exit after parsing its arguments (e.g. a --help-like path) and after a few steps with --late."""

import sys

import torch
from torch import nn

model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
late = "--late" in sys.argv
if not late:
    sys.exit(3)
for _step in range(3):
    opt.zero_grad()
    model(torch.randn(8, 4)).pow(2).mean().backward()
    opt.step()
sys.exit(0)

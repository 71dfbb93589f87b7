"""Reads its configuration from stdin (gets nothing under debug-agent), then trains."""

import sys

import torch
import torch.nn.functional as F
from torch import nn

text = sys.stdin.read()  # must not block: stdin is /dev/null in the observed run
lr = float(text.strip() or 0.1)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=lr)
X, Y = torch.randn(64, 4), torch.randn(64, 1)
for _step in range(50):
    opt.zero_grad()
    F.mse_loss(model(X), Y).backward()
    opt.step()

"""A loop that updates parameters by hand (no torch.optim), as several official examples do.

--bug none | no_zero_grad
"""

import argparse

import torch
import torch.nn.functional as F
from torch import nn

parser = argparse.ArgumentParser()
parser.add_argument("--bug", default="none")
args = parser.parse_args()

torch.manual_seed(0)
X = torch.randn(256, 5)
Y = X @ torch.randn(5, 1) + 0.1
model = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 1))
lr = 0.05
for _step in range(100):
    idx = torch.randint(0, 256, (32,))
    x, y = X[idx], Y[idx]
    loss = F.mse_loss(model(x), y)
    if args.bug != "no_zero_grad":
        model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for p in model.parameters():
            p -= lr * p.grad

"""A training loop that accumulates gradients over 8 micro-batches per optimizer step (tests of accum_scale on an
observed script).

--bug unscaled (each micro-batch loss summed as it is) | none (each divided by the number of micro-batches)
"""

import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--bug", default="none")
args = parser.parse_args()

torch.manual_seed(0)
x = torch.randn(512, 8)
y = (x[:, 0] - x[:, 1] > 0).long()
train = DataLoader(TensorDataset(x, y), batch_size=8)
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
accum = 8

for step, (xb, yb) in enumerate(train):
    loss = nn.functional.cross_entropy(model(xb), yb)
    (loss if args.bug == "unscaled" else loss / accum).backward()
    if (step + 1) % accum == 0:
        opt.step()
        opt.zero_grad()

"""Trains with DataLoader worker processes and also starts a long-running subprocess."""

import os
import subprocess
import sys

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
with open("spawned.pid", "w") as f:  # the test checks that these processes are gone afterwards
    f.write(f"{helper.pid} {os.getpgrp()}")
X = torch.randn(256, 4)
Y = (X[:, 0] > 0).long()
loader = DataLoader(TensorDataset(X, Y), batch_size=16, num_workers=2, persistent_workers=True)
model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _epoch in range(100):
    for x, y in loader:
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()

"""Never reaches an optimizer step: it sleeps in a (long) set-up phase."""

import time

import torch
from torch import nn

model = nn.Linear(4, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
while True:
    time.sleep(0.05)  # "preparing the data"

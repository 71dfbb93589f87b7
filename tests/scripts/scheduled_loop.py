"""A plain training loop with a learning-rate scheduler (tests of lr_schedule on an observed script).

--bug none (StepLR stepped once per epoch) | per_batch (the same StepLR stepped after every batch)
| onecycle (OneCycleLR sized in batches, stepped after every batch: healthy)
"""

import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--bug", default="none")
parser.add_argument("--epochs", type=int, default=20)
args = parser.parse_args()

torch.manual_seed(0)
x = torch.randn(2048, 8)
y = x[:, 0] - 2 * x[:, 1] + 0.1 * torch.randn(2048)
train = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)  # 64 batches per epoch
model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
if args.bug == "onecycle":
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=args.epochs * len(train))
else:
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=args.epochs // 4, gamma=0.1)  # in epochs

for epoch in range(args.epochs):
    for xb, yb in train:
        loss = nn.functional.mse_loss(model(xb).squeeze(1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if args.bug in ("per_batch", "onecycle"):
            sched.step()
    if args.bug == "none":
        sched.step()
    print(f"epoch {epoch} loss {loss.item():.4f} lr {opt.param_groups[0]['lr']:.2e}")

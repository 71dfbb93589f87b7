"""Fine-tuning a (tiny) pretrained-feature classifier head for several epochs on a small custom dataset.

Healthy code: shuffled loader, fresh zero_grad each step, AdamW; 3 epochs over 96 examples.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

D, C = 128, 8


class Head(nn.Module):
    def __init__(self, hidden=512):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(D, hidden), nn.GELU(), nn.Linear(hidden, hidden), nn.GELU(),
                                 nn.Linear(hidden, C))

    def forward(self, x):
        return self.net(x)


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    teacher = torch.randn(D, C, generator=torch.Generator().manual_seed(123))
    x = torch.randn(n, D, generator=g)
    y = (x @ teacher + 6.0 * torch.randn(n, C, generator=g)).argmax(1)   # weak, noisy signal
    return x, y


def train_step(model, batch, optimizer, loss_fn):
    model.train()
    x, y = batch
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


def make_target():
    torch.manual_seed(0)
    xtr, ytr = make_data(96, 1)
    xva, yva = make_data(256, 2)
    return {
        "model": Head(),
        "batch": (xtr[:16], ytr[:16]),
        "loss_fn": lambda out, y: F.cross_entropy(out, y),
        "optimizer": lambda p: torch.optim.AdamW(p, lr=3e-3, weight_decay=0.01),
        "train_step": train_step,
        "train_data": (xtr, ytr),
        "val_data": (xva, yva),
    }

"""DETR-style training step without AMP: backward, clip the gradient norm, step; the gradients are never zeroed."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class BoxHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 4))

    def forward(self, x):
        return self.net(x).sigmoid()


def make_batch(g, w, n=64):
    x = torch.randn(n, 16, generator=g)
    return x, torch.sigmoid(x @ w)


def train_one_epoch(model, optimizer, batches, max_norm=0.1, zero_grad=False):
    pre_clip = []
    for x, y in batches:
        loss = F.l1_loss(model(x), y)
        if zero_grad:
            optimizer.zero_grad()
        loss.backward()
        pre_clip.append(float(torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)))
        optimizer.step()
    return pre_clip


def make_target():
    torch.manual_seed(0)
    w = torch.randn(16, 4, generator=torch.Generator().manual_seed(5)) / 2
    x, y = make_batch(torch.Generator().manual_seed(0), w)
    return {
        "model": BoxHead(),
        "batch": (x, y),
        "loss_fn": F.l1_loss,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=1e-3, weight_decay=1e-4),
    }

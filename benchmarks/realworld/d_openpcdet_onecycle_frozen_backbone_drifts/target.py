"""Frozen pretrained backbone + trainable head, optimised by a one-cycle Adam wrapper with decoupled weight decay."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU())
        self.head = nn.Linear(32, 3)
        for p in self.backbone.parameters():
            p.requires_grad = False  # keep the pretrained backbone fixed

    def forward(self, x):
        with torch.no_grad():
            feats = self.backbone(x)
        return self.head(feats)


class OneCycleAdam:
    """Adam with one-cycle lr and decoupled weight decay, stepping every parameter of the model."""

    def __init__(self, params, lr_max=3e-3, wd=0.01, total_steps=2000):
        self.params = list(params)
        self.inner = torch.optim.Adam(self.params, lr=lr_max)
        self.lr_max, self.wd, self.total, self.t = lr_max, wd, total_steps, 0
        self.param_groups = self.inner.param_groups

    def zero_grad(self, set_to_none=True):
        self.inner.zero_grad(set_to_none=set_to_none)

    def step(self):
        frac = self.t / self.total
        lr = self.lr_max * (frac / 0.4 if frac < 0.4 else max(0.0, (1 - frac) / 0.6)) + 1e-5
        self.t += 1
        for group in self.inner.param_groups:
            group["lr"] = lr
        for p in self.params:
            p.data.mul_(1 - lr * self.wd)  # decoupled weight decay
        self.inner.step()


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 16, generator=g)
    return x, (x[:, :3].argmax(1))


def make_target():
    torch.manual_seed(0)
    x, y = _data(256, 1)
    return {
        "model": Detector(),
        "batch": (x[:32], y[:32]),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: OneCycleAdam(params),
        "train_data": (x, y),
        "val_data": _data(256, 2),
    }

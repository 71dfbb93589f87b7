"""A tiny frame-level speech/non-speech classifier; the train step never clears gradients."""

import torch
from torch import nn


class FrameVAD(nn.Module):
    def __init__(self, n_mels=20):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_mels, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return torch.sigmoid(self.net(x)).squeeze(-1)


def train_step(model, batch, optimizer, loss_fn):
    feats, targets = batch
    model.train()
    probs = model(feats)
    loss = loss_fn(probs, targets)
    loss.backward()
    optimizer.step()
    return loss.item()


def _frames(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 20, generator=g)
    w = torch.randn(20, generator=g)
    y = ((x @ w) / 20**0.5 + 0.3 * torch.randn(n, generator=g) > 0).float()
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = _frames(256, 1)
    return {
        "model": FrameVAD(),
        "batch": (x, y),
        "loss_fn": nn.BCELoss(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9),
        "train_step": train_step,
        "train_data": (x, y),
        "val_data": _frames(256, 2),
    }

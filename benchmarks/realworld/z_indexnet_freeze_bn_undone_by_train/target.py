"""Matting encoder-decoder: freeze_bn() puts BN layers in eval once, then the training loop calls net.train()."""

import torch
import torch.nn as nn


class MattingNet(nn.Module):
    def __init__(self, keep_frozen=False):
        super().__init__()
        self.keep_frozen = keep_frozen
        self.enc = nn.Sequential(nn.Conv2d(4, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU())
        self.dec = nn.Conv2d(8, 1, 3, padding=1)
        self.freeze_bn()

    def freeze_bn(self):
        for m in self.modules():
            if isinstance(m, nn.BatchNorm2d):
                m.eval()

    def train(self, mode=True):
        super().train(mode)
        if self.keep_frozen:
            self.freeze_bn()
        return self

    def forward(self, x):
        return torch.sigmoid(self.dec(self.enc(x)))


def make_batch():
    g = torch.Generator().manual_seed(4)
    x = torch.rand(4, 4, 16, 16, generator=g) * 3 + 1
    return x, x[:, 3:4] / 4


def train_step(model, batch, optimizer, loss_fn):
    model.train()
    x, y = batch
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss


def make_target(keep_frozen=False):
    torch.manual_seed(0)
    return {"model": MattingNet(keep_frozen), "batch": make_batch(), "loss_fn": nn.L1Loss(),
            "train_step": train_step, "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3)}

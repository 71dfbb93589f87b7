"""Fine-tune a small mask decoder on frozen image embeddings (SAM-style adapter training).

The runner builds the scheduler through get_scheduler() and steps it after every iteration.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim.lr_scheduler import CosineAnnealingLR, LambdaLR

TRAIN_CFG = {"max_iter": 200, "lr": 1e-3, "scheduler": "cosine"}


def get_scheduler(optimizer, lr_scheduler="cosine", max_epoch=1, n_epochs_init=50, n_epochs_decay=50):
    if lr_scheduler == "cosine":
        return CosineAnnealingLR(optimizer, T_max=max_epoch, eta_min=0.0)
    if lr_scheduler == "linear":
        def rule(epoch):
            return 1.0 - max(0, epoch - n_epochs_init) / float(n_epochs_decay + 1)
        return LambdaLR(optimizer, lr_lambda=rule)
    raise ValueError(lr_scheduler)


class MaskDecoder(nn.Module):
    def __init__(self, c=32):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(c, c, 3, padding=1), nn.GELU(),
                                 nn.Conv2d(c, c // 2, 3, padding=1), nn.GELU(),
                                 nn.Conv2d(c // 2, 1, 1))

    def forward(self, emb):               # emb: (B, C, 16, 16) frozen encoder features
        return self.net(emb)              # (B, 1, 16, 16) mask logits


def build_optimizer(params):
    opt = torch.optim.AdamW(params, lr=TRAIN_CFG["lr"], weight_decay=1e-4)
    # train.py: the scheduler arguments from the config are not forwarded
    opt.scheduler = get_scheduler(opt, TRAIN_CFG["scheduler"])
    return opt


def train_step(model, batch, optimizer, loss_fn):
    emb, mask = batch
    model.train()
    optimizer.zero_grad()
    loss = loss_fn(model(emb), mask)
    loss.backward()
    optimizer.step()
    optimizer.scheduler.step()            # one scheduler step per iteration
    return loss.item()


def seg_loss(logits, mask):
    return F.binary_cross_entropy_with_logits(logits, mask)


def make_batch(n, seed, c=32):
    g = torch.Generator().manual_seed(seed)
    emb = torch.randn(n, c, 16, 16, generator=g)
    mask = (emb[:, :4].mean(1, keepdim=True) > 0).float()
    return emb, mask


def make_target():
    torch.manual_seed(0)
    return {
        "model": MaskDecoder(),
        "batch": make_batch(8, seed=1),
        "loss_fn": seg_loss,
        "optimizer": build_optimizer,
        "train_step": train_step,
        "train_data": [make_batch(8, seed=10 + i) for i in range(10)],
        "val_data": [make_batch(8, seed=900)],
    }

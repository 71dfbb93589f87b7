"""A text-feature classifier whose step accumulates gradients over micro-batches to save memory."""

import torch
from torch import nn

ACCUM = 4  # micro-batches per optimizer step


def train_step(model, batch, optimizer, loss_fn):
    model.train()
    inputs, targets = batch
    optimizer.zero_grad()
    for xs, ys in zip(inputs.chunk(ACCUM), targets.chunk(ACCUM), strict=True):
        loss = loss_fn(model(xs), ys)  # (B/ACCUM,) rows: the mean over this micro-batch
        loss.backward()  # summed over ACCUM micro-batches: ACCUM times the batch's gradient
    nn.utils.clip_grad_norm_(model.parameters(), 5.0)
    optimizer.step()
    return loss.detach()


def make_target():
    torch.manual_seed(0)
    x = torch.randn(64, 20)
    y = (x[:, :4].sum(1) > 0).long()
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, 2))
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "train_step": train_step,
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9),
    }

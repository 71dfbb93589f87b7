"""SFT-style trainer step with gradient accumulation over micro-batches: each micro-batch's mean loss is
backpropagated as is, without dividing by the number of accumulation steps, so the accumulated gradient is the
sum of the micro-batch gradients instead of their mean."""

import torch
import torch.nn as nn
import torch.nn.functional as F

D, V, MICRO, ACCUM = 16, 12, 8, 8


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(D, 64), nn.Tanh(), nn.Linear(64, V))

    def forward(self, x):
        return self.net(x)


def train_step(model, opt, x, y, accum=ACCUM, normalise=False, clip=None):
    opt.zero_grad()
    for xm, ym in zip(x.chunk(accum), y.chunk(accum), strict=True):
        loss = F.cross_entropy(model(xm), ym)
        if normalise:
            loss = loss / accum
        loss.backward()
    gn = torch.nn.utils.clip_grad_norm_(model.parameters(), clip if clip else float("inf"))
    opt.step()
    return gn.item()


def make_batch(g, n=MICRO * ACCUM):
    w = torch.randn(D, V, generator=torch.Generator().manual_seed(11))
    x = torch.randn(n, D, generator=g)
    y = (x @ w + 0.5 * torch.randn(n, V, generator=g)).argmax(-1)
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = make_batch(torch.Generator().manual_seed(0))
    return {
        "model": TinyLM(),
        "batch": (x, y),
        "loss_fn": F.cross_entropy,
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.5),
    }

"""Fine-tuning a classifier head on a frozen pretrained backbone with a Muon-style optimizer (orthogonalised momentum
for matrices, decoupled weight decay). All model parameters are handed to the optimizer; the backbone has
requires_grad=False. The optimizer fills a missing gradient with zeros and still applies the weight decay."""

import torch
from torch import nn
import torch.nn.functional as F


def _orthogonalize(g, steps=5):
    x = g / (g.norm() + 1e-7)
    transpose = x.shape[0] > x.shape[1]
    if transpose:
        x = x.T
    for _ in range(steps):
        a = x @ x.T
        x = 1.5 * x - 0.5 * a @ x
    return x.T if transpose else x


class OrthoMomentum(torch.optim.Optimizer):
    def __init__(self, params, lr=0.02, momentum=0.95, weight_decay=0.0):
        super().__init__(params, dict(lr=lr, momentum=momentum, weight_decay=weight_decay))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    p.grad = torch.zeros_like(p)  # keep every rank on the same code path
                state = self.state[p]
                if "buf" not in state:
                    state["buf"] = torch.zeros_like(p)
                buf = state["buf"]
                buf.mul_(group["momentum"]).add_(p.grad)
                upd = _orthogonalize(buf) if p.ndim == 2 else buf
                p.mul_(1 - group["lr"] * group["weight_decay"])
                p.add_(upd, alpha=-group["lr"])


class Classifier(nn.Module):
    def __init__(self, d_in=32, d=64, n_cls=5):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(d_in, d), nn.GELU(), nn.Linear(d, d), nn.GELU())
        self.head = nn.Linear(d, n_cls)

    def forward(self, x):
        return self.head(self.backbone(x))


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 32, generator=g)
    w = torch.randn(32, 5, generator=torch.Generator().manual_seed(123))
    return x, (x @ w).argmax(1)


def make_target():
    torch.manual_seed(0)
    model = Classifier()
    for p in model.backbone.parameters():  # "pretrained" backbone stays frozen
        p.requires_grad_(False)
    return {
        "model": model,
        "batch": _data(64, seed=1),
        "loss_fn": F.cross_entropy,
        "optimizer": lambda params: OrthoMomentum(list(params), lr=0.05, weight_decay=0.1),
        "train_data": [_data(64, seed=s) for s in range(2, 12)],
    }

"""Fingerprint-vector -> property regressor with a hand-written batch normalization (always batch statistics)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

FP = 32


class BatchNormalize(nn.Module):
    def forward(self, x):
        mean = x.mean(0, keepdim=True)
        var = x.var(0, unbiased=False, keepdim=True)
        return (x - mean) / torch.sqrt(var + 1e-4)


class FingerprintNet(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.l1 = nn.Linear(FP, hidden)
        self.bn1 = BatchNormalize()
        self.l2 = nn.Linear(hidden, hidden)
        self.bn2 = BatchNormalize()
        self.out = nn.Linear(hidden, 1)

    def forward(self, x):
        h = F.relu(self.bn1(self.l1(x)))
        h = F.relu(self.bn2(self.l2(h)))
        return self.out(h).squeeze(-1)


def _mols(n, seed):
    g = torch.Generator().manual_seed(seed)
    fp = (torch.rand(n, FP, generator=g) < 0.2).float()
    w = torch.randn(FP, generator=torch.Generator().manual_seed(3))
    return fp, fp @ w * 0.5 - 3.0 + 0.1 * torch.randn(n, generator=g)


def eval_fn(model, x):
    model.eval()
    with torch.no_grad():
        return model(x)


def make_target():
    torch.manual_seed(0)
    return {
        "model": FingerprintNet(),
        "batch": _mols(64, 1),
        "loss_fn": lambda out, y: F.mse_loss(out, y),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "eval_fn": eval_fn,
        "train_data": _mols(512, 2),
        "val_data": _mols(128, 3),
    }

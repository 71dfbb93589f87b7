"""XOR-style classification (four noisy clusters) with a single small hidden layer."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def xor_points(n, seed):
    g = torch.Generator().manual_seed(seed)
    corners = torch.randint(0, 2, (n, 2), generator=g)
    x = corners.float() * 2 - 1 + 0.25 * torch.randn(n, 2, generator=g)
    return x, (corners[:, 0] ^ corners[:, 1]).float().unsqueeze(1)


def make_net(hidden=1):
    return nn.Sequential(nn.Linear(2, hidden), nn.Sigmoid(), nn.Linear(hidden, 1))


def make_target():
    torch.manual_seed(0)
    x, y = xor_points(256, 1)
    return {
        "model": make_net(),
        "batch": (x[:32], y[:32]),
        "loss_fn": lambda out, t: F.binary_cross_entropy_with_logits(out, t),
        "metric_fn": lambda out, t: ((out > 0).float() == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
        "train_data": (x, y),
        "val_data": xor_points(256, 2),
    }

"""Real-vs-generated detector on feature vectors; the test split shares most of its rows with the train split."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _pool(n, seed):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(32, generator=torch.Generator().manual_seed(7))
    x = torch.randn(n, 32, generator=g)
    y = ((x @ w) / 5.7 + 1.0 * torch.randn(n, generator=g) > 0).long()  # noisy: about 75% is reachable
    return x, y


def splits():
    x, y = _pool(400, 1)
    fresh_x, fresh_y = _pool(76, 2)
    reused = torch.arange(124)  # 124 of the 200 test rows are copies of training rows
    test_x = torch.cat([x[reused], fresh_x])
    test_y = torch.cat([y[reused], fresh_y])
    return (x, y), (test_x, test_y)


def make_target():
    torch.manual_seed(0)
    train, test = splits()
    return {
        "model": nn.Sequential(nn.Linear(32, 256), nn.ReLU(), nn.Linear(256, 2)),
        "batch": (train[0][:32], train[1][:32]),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": train,
        "val_data": test,
    }

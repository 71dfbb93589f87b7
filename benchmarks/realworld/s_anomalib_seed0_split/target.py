"""Train/test made by two independent random splits of the same pool (no fixed seed): they overlap."""
import torch
from torch import nn
import torch.nn.functional as F

N, D, TEST_FRAC = 400, 20, 0.2


def pool():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(N, D, generator=g)
    y = ((x[:, 0] + 1.5 * torch.randn(N, generator=g)) > 0).long()  # weak signal, mostly noise
    return x, y


def split(generator):
    perm = torch.randperm(N, generator=generator)
    n_test = int(N * TEST_FRAC)
    return perm[n_test:], perm[:n_test]


def make_splits():
    x, y = pool()
    train_idx, _ = split(torch.Generator().manual_seed(11))  # train set built in one call
    _, test_idx = split(torch.Generator().manual_seed(12))  # test set built in another call
    return (x[train_idx], y[train_idx]), (x[test_idx], y[test_idx]), train_idx, test_idx


def make_target():
    torch.manual_seed(0)
    (xt, yt), (xv, yv), _, _ = make_splits()
    model = nn.Sequential(nn.Linear(D, 256), nn.ReLU(), nn.Linear(256, 2))
    return {
        "model": model,
        "batch": (xt[:64], yt[:64]),
        "loss_fn": F.cross_entropy,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "train_data": (xt, yt),
        "val_data": (xv, yv),
    }

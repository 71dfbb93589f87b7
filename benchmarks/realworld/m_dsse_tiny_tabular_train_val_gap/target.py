"""A very small non-image dataset (40 training rows, 10 validation rows), many classes relative to the data, and a
simple network: batch norm, flatten, dense layers with two dropout(0.5) layers."""

import torch
from torch import nn
import torch.nn.functional as F

N_FEAT, N_CLS = 30, 8


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(N_CLS, N_FEAT, generator=torch.Generator().manual_seed(7)) * 0.6
    y = torch.randint(0, N_CLS, (n,), generator=g)
    x = centers[y] + torch.randn(n, N_FEAT, generator=g)
    return x, y


class SmallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.BatchNorm1d(N_FEAT), nn.Flatten(),
            nn.Linear(N_FEAT, 128), nn.ReLU(), nn.Dropout(0.5),
            nn.Linear(128, 64), nn.ReLU(), nn.Dropout(0.5),
            nn.Linear(64, N_CLS),
        )

    def forward(self, x):
        return self.net(x)


def eval_fn(model, x):
    model.eval()
    with torch.no_grad():
        return model(x)


def make_target():
    torch.manual_seed(0)
    train, val = make_split(40, seed=1), make_split(10, seed=2)
    return {
        "model": SmallNet(),
        "batch": train,
        "loss_fn": F.cross_entropy,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "eval_fn": eval_fn,
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "train_data": train,
        "val_data": val,
    }

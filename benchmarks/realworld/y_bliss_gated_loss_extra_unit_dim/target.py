"""Per-tile regression head: prediction keeps a trailing unit dim, truth and gate don't; the gated MSE broadcasts."""

import torch
import torch.nn as nn

F_IN, N_TILES = 12, 256


class TileHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(F_IN, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, tiles):
        return self.net(tiles)  # (n_tiles, 1)


def gated_mse(pred, target):
    truth, on = target
    return ((pred - truth) ** 2 * on).sum() / on.sum()  # pred (n,1) vs truth (n,) -> (n, n)


def gated_mse_fixed(pred, target):
    truth, on = target
    return ((pred.squeeze(-1) - truth) ** 2 * on).sum() / on.sum()


def make_data(n=N_TILES, seed=0):
    g = torch.Generator().manual_seed(seed)
    tiles = torch.randn(n, F_IN, generator=g)
    w = torch.randn(F_IN, generator=torch.Generator().manual_seed(11))
    truth = tiles @ w / 3 + 2.0
    on = (torch.rand(n, generator=g) < 0.6).float()
    return tiles, (truth, on)


def make_target():
    torch.manual_seed(0)
    tiles, target = make_data()
    return {
        "model": TileHead(),
        "batch": (tiles, target),
        "loss_fn": gated_mse,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
    }

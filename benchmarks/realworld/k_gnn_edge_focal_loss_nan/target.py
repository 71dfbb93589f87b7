"""Edge classifier of a GNN tracking pipeline (reduced to its edge MLP): scores hit-pair edges from
geometric features in detector units and is trained with a binary focal loss written with log(p) and
log(1 - p) of the sigmoid scores."""

import torch
import torch.nn as nn


def focal_loss(logits, y, gamma=2.0, alpha=0.25):
    p = torch.sigmoid(logits)
    pos = -alpha * y * (1 - p) ** gamma * torch.log(p)
    neg = -(1 - alpha) * (1 - y) * p**gamma * torch.log(1 - p)
    return (pos + neg).mean()


def make_edges(n, seed):
    # (delta r [mm], delta phi [rad], delta z [mm], hit-pair residual [mm]); true edges are geometrically tight
    g = torch.Generator().manual_seed(seed)
    y = (torch.rand(n, generator=g) < 0.3).float()
    dr = 30 + 5 * torch.randn(n, generator=g)
    dphi = 0.01 * torch.randn(n, generator=g)
    dz = torch.where(y > 0, 3 * torch.randn(n, generator=g), 300 * torch.randn(n, generator=g))
    res = torch.where(y > 0, 0.5 * torch.rand(n, generator=g), 5 + 200 * torch.rand(n, generator=g))
    return torch.stack([dr, dphi, dz, res], 1), y


class EdgeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, edge_attr):
        return self.mlp(edge_attr).squeeze(-1)


def make_target():
    torch.manual_seed(0)
    return {
        "model": EdgeNet(),
        "batch": make_edges(256, 1),
        "loss_fn": focal_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "metric_fn": lambda out, y: ((out > 0).float() == y).float().mean().item(),
        "train_data": make_edges(2048, 1),
        "val_data": make_edges(512, 2),
    }

"""Runtime predictor for compiler layout configurations (Kaggle "Fast or Slow" style).

Each example is one graph configuration: per-node features (shapes, sizes, strides, layout ids...) straight
from the .npz files, averaged over nodes by the model, regressing the measured runtime.
"""
import torch
import torch.nn as nn

N_NODES = 24
N_FEAT = 16
# typical magnitudes of the raw columns: element counts and byte sizes dwarf flags and layout ids
COL_SCALE = torch.tensor([1e6, 3e5, 4e4, 8e3, 2e3, 512., 128., 64., 16., 8., 4., 1., 1., 1., 0.5, 0.])


class LayoutModel(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.node_mlp = nn.Sequential(nn.Linear(N_FEAT, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.head = nn.Linear(hidden, 1)

    def forward(self, node_feat):                      # (B, N_NODES, N_FEAT)
        return self.head(self.node_mlp(node_feat).mean(1)).squeeze(-1)


def make_configs(n, seed):
    g = torch.Generator().manual_seed(seed)
    unit = torch.rand(n, N_NODES, N_FEAT, generator=g)
    node_feat = unit * COL_SCALE                       # raw values as stored
    node_feat[..., -1] = 3.0                           # a column that never changes
    w = torch.linspace(1.0, -1.0, N_FEAT)
    runtime = 10.0 + 100.0 * (unit.mean(1) @ w) + 1.0 * torch.randn(n, generator=g)   # ms
    return node_feat, runtime


def make_target():
    torch.manual_seed(0)
    x, y = make_configs(64, seed=1)
    return {
        "model": LayoutModel(),
        "batch": (x, y),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.AdamW(p, lr=1e-3),
        "train_data": [make_configs(64, seed=10 + i) for i in range(8)],
        "val_data": [make_configs(64, seed=99)],
    }

"""Drug-response regression (cell-line features + drug features -> response) where the validation rows are
appended to the training set before fitting, as in the reported multi-drug code path."""

import torch
from torch import nn


def _make_split(n_cells, n_drugs, seed):
    g = torch.Generator().manual_seed(seed)
    cells = torch.randn(n_cells, 16, generator=g)
    drugs = torch.randn(n_drugs, 8, generator=torch.Generator().manual_seed(99))
    w = torch.randn(16, 8, generator=torch.Generator().manual_seed(7))
    ci, di = torch.meshgrid(torch.arange(n_cells), torch.arange(n_drugs), indexing="ij")
    ci, di = ci.flatten(), di.flatten()
    x = torch.cat([cells[ci], drugs[di]], 1)
    y = ((cells[ci] @ w) * drugs[di]).sum(1, keepdim=True) / 4 + 0.5 * torch.randn(len(ci), 1, generator=g)
    cell_ids = ci + seed * 1000
    return x, y, cell_ids


def build_datasets():
    xt, yt, gt = _make_split(24, 10, seed=1)   # train cell lines
    xv, yv, gv = _make_split(6, 10, seed=2)    # validation cell lines (LCO: unseen cell lines)
    xs, ys, gs = _make_split(6, 10, seed=3)    # test cell lines
    # multi-drug path: the validation rows end up aggregated into the training data
    xt, yt, gt = torch.cat([xt, xv]), torch.cat([yt, yv]), torch.cat([gt, gv])
    return (xt, yt, gt), (xv, yv, gv), (xs, ys, gs)


def make_model():
    return nn.Sequential(nn.Linear(24, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 1))


def make_target():
    torch.manual_seed(0)
    (xt, yt, gt), (xv, yv, gv), _ = build_datasets()
    return {
        "model": make_model(),
        "batch": (xt[:64], yt[:64]),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "train_data": (xt, yt),
        "val_data": (xv, yv),
        "groups": (gt.tolist(), gv.tolist()),
    }

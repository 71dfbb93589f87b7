"""Segmentation-style per-voxel classifier on CT patches; the train and test case lists come from split files.

Seven case ids appear in both lists (copied into the test list by the split script).
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_CASES, PATCHES, D = 60, 6, 16
TRAIN_CASES = list(range(0, 45))
TEST_CASES = list(range(45, 60)) + [0, 3, 7, 12, 18, 25, 31]  # last seven are also training cases


def _patches(cases, seed):
    g = torch.Generator().manual_seed(seed)
    case_feat = torch.randn(N_CASES, D, generator=torch.Generator().manual_seed(7))
    case_lab = (case_feat[:, 0] + 1.5 * torch.randn(N_CASES, generator=torch.Generator().manual_seed(8)) > 0).long()
    xs, ys, gs = [], [], []
    for c in cases:
        xs.append(case_feat[c] + 0.1 * torch.randn(PATCHES, D, generator=g))
        ys.append(case_lab[c].repeat(PATCHES))
        gs += [f"FELIX-{c:04d}"] * PATCHES
    return torch.cat(xs), torch.cat(ys), gs


def make_target():
    torch.manual_seed(0)
    xtr, ytr, gtr = _patches(TRAIN_CASES, 1)
    xte, yte, gte = _patches(TEST_CASES, 2)
    return {
        "model": nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, 2)),
        "batch": (xtr[:32], ytr[:32]),
        "loss_fn": lambda out, y: F.cross_entropy(out, y),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": (xtr, ytr),
        "val_data": (xte, yte),
        "groups": (gtr, gte),
    }

"""Mask R-CNN style keypoint head fine-tuned on a small new pose dataset (a few dozen annotated people).

Each keypoint is predicted as a softmax over the cells of a small grid, trained with cross-entropy
against the annotated cell, like the keypoint branch of Mask R-CNN.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_FEAT = 64          # pooled ROI features from a frozen backbone
N_KPT = 13           # Penn-Action style joints
GRID = 4             # keypoint heatmap resolution (GRID x GRID cells)


class KeypointHead(nn.Module):
    def __init__(self, hidden=256):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(N_FEAT, hidden), nn.ReLU(),
                                 nn.Linear(hidden, hidden), nn.ReLU(),
                                 nn.Linear(hidden, N_KPT * GRID * GRID))

    def forward(self, roi_feat):
        return self.net(roi_feat).view(-1, N_KPT, GRID * GRID)


_W = torch.randn(8, N_KPT * GRID * GRID, generator=torch.Generator().manual_seed(7))


def make_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, N_FEAT, generator=g)
    scores = (x[:, :8] @ _W).view(n, N_KPT, GRID * GRID)                 # pose depends on a few ROI features
    scores = scores + 1.0 * torch.randn(scores.shape, generator=g)        # annotation noise
    return x, scores.argmax(-1)                                          # (n, N_KPT) cell index


def keypoint_loss(logits, cells):
    return F.cross_entropy(logits.flatten(0, 1), cells.flatten())


def make_target():
    torch.manual_seed(0)
    train = make_split(96, seed=1)
    val = make_split(200, seed=2)
    return {
        "model": KeypointHead(),
        "batch": train,
        "loss_fn": keypoint_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-4),
        "train_data": train,
        "val_data": val,
    }

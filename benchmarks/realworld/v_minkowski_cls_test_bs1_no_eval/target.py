"""Point-cloud classifier (per-point convs + batch norm + global max pool); trained with batch size 8.

test() below is the evaluation routine used on the held-out scans, one scan per batch.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES, N_POINTS = 4, 64


class PointNetLite(nn.Module):
    def __init__(self):
        super().__init__()
        self.feat = nn.Sequential(
            nn.Conv1d(3, 32, 1), nn.BatchNorm1d(32), nn.ReLU(),
            nn.Conv1d(32, 32, 1), nn.BatchNorm1d(32), nn.ReLU(),
        )
        self.cls = nn.Linear(32, N_CLASSES)

    def forward(self, pts):  # pts: (B, 3, N)
        return self.cls(self.feat(pts).max(dim=2).values)


def scans(n, seed):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(N_CLASSES, 3, generator=torch.Generator().manual_seed(123)) * 1.5
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    x = centers[y][:, :, None] + 0.5 * torch.randn(n, 3, N_POINTS, generator=g)
    return x, y


def test(model, pts):
    with torch.no_grad():
        return model(pts)


def accuracy(logits, y):
    return (logits.argmax(-1) == y).float().mean().item()


def make_target():
    torch.manual_seed(0)
    x, y = scans(8, 1)
    return {
        "model": PointNetLite(),
        "batch": (x, y),
        "loss_fn": F.cross_entropy,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
        "eval_fn": test,
        "metric_fn": accuracy,
        "train_data": scans(256, 2),
        "val_data": scans(64, 3),
    }

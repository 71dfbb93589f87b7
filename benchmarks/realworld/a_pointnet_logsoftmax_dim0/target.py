"""Tiny PointNet-style classifier: shared per-point MLP (Conv1d k=1), global max pool, FC head."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PointNetCls(nn.Module):
    def __init__(self, k=5):
        super().__init__()
        self.conv1 = nn.Conv1d(3, 32, 1)
        self.conv2 = nn.Conv1d(32, 64, 1)
        self.fc1 = nn.Linear(64, 32)
        self.fc2 = nn.Linear(32, k)

    def forward(self, pts):                      # pts: (batch, 3, n_points)
        x = F.relu(self.conv1(pts))
        x = F.relu(self.conv2(x))
        x = torch.max(x, 2)[0]
        x = F.relu(self.fc1(x))
        x = self.fc2(x)
        return F.log_softmax(x, dim=0)


def _clouds(n, seed, k=5):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, k, (n,), generator=g)
    pts = torch.randn(n, 3, 64, generator=g)
    pts = pts * (0.5 + 0.3 * y.float()).view(-1, 1, 1)   # class = cloud scale
    return pts, y


def make_target():
    torch.manual_seed(0)
    pts, y = _clouds(16, 1)
    return {
        "model": PointNetCls(),
        "batch": ((pts,), y),
        "loss_fn": lambda logp, target: F.nll_loss(logp, target),
        "metric_fn": lambda logp, target: (logp.argmax(1) == target).float().mean().item(),
        "train_data": _clouds(128, 2),
        "val_data": _clouds(64, 3),
    }

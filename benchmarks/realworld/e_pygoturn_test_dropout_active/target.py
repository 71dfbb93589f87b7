"""A GOTURN-style regressor: shared conv features of the previous-frame and current-frame crops, concatenated and
passed through a fully connected head with dropout to predict the box (x1, y1, x2, y2); the test routine
tracks frame by frame."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class TrackerNet(nn.Module):
    def __init__(self, c=8, hidden=128):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, c, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(c, c, 3, stride=2, padding=1), nn.ReLU(),
        )
        self.regressor = nn.Sequential(
            nn.Linear(2 * c * 4 * 4, hidden), nn.ReLU(), nn.Dropout(0.5),
            nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(0.5),
            nn.Linear(hidden, 4),
        )

    def forward(self, prev_crop, curr_crop):
        a = self.features(prev_crop).flatten(1)
        b = self.features(curr_crop).flatten(1)
        return self.regressor(torch.cat([a, b], 1))


def crops(n, seed):
    g = torch.Generator().manual_seed(seed)
    prev = torch.rand(n, 3, 16, 16, generator=g)
    box = torch.rand(n, 4, generator=g) * 8
    box[:, 2:] += 8
    curr = prev.roll(1, dims=3) + 0.05 * torch.randn(n, 3, 16, 16, generator=g)
    return (prev, curr), box


def track(model, batch):
    """The test script: no gradients, frame pair by frame pair."""
    (prev, curr), _ = batch
    with torch.no_grad():
        return model(prev, curr)


def make_target():
    torch.manual_seed(0)
    (p, c), y = crops(256, 1)
    return {
        "model": TrackerNet(),
        "batch": ((p[:32], c[:32]), y[:32]),
        "loss_fn": lambda out, t: F.l1_loss(out, t),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "eval_fn": track,
        "train_data": [((p[i : i + 32], c[i : i + 32]), y[i : i + 32]) for i in range(0, 256, 32)],
        "val_data": [(x, t) for x, t in [crops(32, 2)]],
    }

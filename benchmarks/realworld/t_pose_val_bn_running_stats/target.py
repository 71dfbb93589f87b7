"""A small conv keypoint-heatmap net with BatchNorm; the validation routine leaves the model in train mode."""

import torch
from torch import nn


class TinyHourglass(nn.Module):
    def __init__(self, joints=4):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
        )
        self.head = nn.Conv2d(16, joints, 1)

    def forward(self, x):
        return self.head(self.body(x))


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 3, 16, 16, generator=g) * 2.0 + 0.5
    y = torch.zeros(n, 4, 16, 16)
    idx = torch.randint(0, 16, (n, 4, 2), generator=g)
    for i in range(n):
        for j in range(4):
            y[i, j, idx[i, j, 0], idx[i, j, 1]] = 1.0
    return x, y


def validate(model, x):
    # same phase switch as the training loop: model.train() for both phases
    model.train()
    with torch.no_grad():
        return model(x)


def make_target():
    torch.manual_seed(0)
    model = TinyHourglass()
    x, y = _data(16, 1)
    vx, vy = _data(16, 2)
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "eval_fn": validate,
        "train_data": (x, y),
        "val_data": (vx, vy),
    }

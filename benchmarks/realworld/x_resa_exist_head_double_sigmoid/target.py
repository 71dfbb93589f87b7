"""Lane-existence head (RESA-style): the head already ends in a sigmoid, and the loss is BCEWithLogitsLoss."""

import torch
import torch.nn as nn

N_LANES, FEAT = 4, 16


class ExistHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d((2, 4))
        self.fc9 = nn.Linear(8 * 2 * 4, 64)
        self.fc10 = nn.Linear(64, N_LANES)
        self.conv = nn.Conv2d(FEAT, 8, 1)

    def forward(self, feat):
        x = self.pool(torch.relu(self.conv(feat))).flatten(1)
        x = torch.relu(self.fc9(x))
        return torch.sigmoid(self.fc10(x))  # probabilities out of the head


def make_batch(g, n=64):
    exist = (torch.rand(n, N_LANES, generator=g) < 0.5).float()
    feat = 0.3 * torch.randn(n, FEAT, 8, 16, generator=g)
    for k in range(N_LANES):  # each present lane lights up its own vertical stripe of channels
        feat[:, 4 * k:4 * k + 4, :, 4 * k:4 * k + 4] += 1.5 * exist[:, k, None, None, None]
    return feat, exist


def make_target():
    torch.manual_seed(0)
    model = ExistHead()
    feat, exist = make_batch(torch.Generator().manual_seed(0))
    return {
        "model": model,
        "batch": (feat, exist),
        "loss_fn": nn.BCEWithLogitsLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "metric_fn": lambda out, y: float(((out > 0.5).float() == y).float().mean()),
    }

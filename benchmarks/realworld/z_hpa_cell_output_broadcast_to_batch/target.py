"""HPA single-cell classifier: the flatten folds the whole batch into one row, so MSELoss broadcasts 1 prediction over 8 labels."""

import torch
import torch.nn as nn

B, C, FEAT = 8, 18, 8 * 8 * 8


class CellNet(nn.Module):
    def __init__(self, fold_batch=True):
        super().__init__()
        self.fold_batch = fold_batch
        self.conv = nn.Conv2d(4, 8, 3, padding=1)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(B * FEAT if fold_batch else FEAT, C)

    def forward(self, x):
        h = self.pool(torch.relu(self.conv(x)))
        if self.fold_batch:
            h = h.view(-1, B * FEAT)  # sized for "8 x 8 x 8 x 8": the batch ends up inside the row
        else:
            h = h.flatten(1)
        return self.fc(h)


def make_data(seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(B, 4, 16, 16, generator=g)
    proj = torch.randn(4, C, generator=torch.Generator().manual_seed(7))
    y = (x.mean(dim=(2, 3)) @ proj > 0).float()
    return x, y


def make_target(fold_batch=True):
    torch.manual_seed(0)
    return {
        "model": CellNet(fold_batch),
        "batch": make_data(),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
    }

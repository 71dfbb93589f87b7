"""A dataset whose __getitem__ returns the sample at idx but reads its target from a running cursor.

That is right only when the sampler walks the indices in order (shuffle=False).
"""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class CursorDataset(Dataset):
    def __init__(self, n, seed):
        g = torch.Generator().manual_seed(seed)
        self.x = torch.randn(n, 16, generator=g)
        self.y = (self.x[:, :4].sum(1) > 0).long() + 2 * (self.x[:, 4] > 0).long()
        self.cursor = 0

    def __len__(self):
        return len(self.x)

    def __getitem__(self, idx):
        target = self.y[self.cursor % len(self.y)]
        self.cursor += 1
        return self.x[idx], target


def build():
    return nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 4))


def make_target():
    torch.manual_seed(0)
    train = CursorDataset(1024, 1)
    val = CursorDataset(512, 2)
    return {
        "model": build(),
        "batch": (train.x[:32], train.y[:32]),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": DataLoader(train, batch_size=32, shuffle=True, generator=torch.Generator().manual_seed(0)),
        "val_data": (val.x, val.y),
    }

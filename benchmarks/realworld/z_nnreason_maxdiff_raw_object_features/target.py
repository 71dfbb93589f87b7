"""Maximum value difference over a set of objects; object features fed raw (location 0-20, value 0-100, colour 0-10)."""

import torch
import torch.nn as nn

K, BINS = 5, 5


class SetGNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.pair = nn.Sequential(nn.Linear(6, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.out = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, BINS))

    def forward(self, x):  # (B, K, 3)
        a = x.unsqueeze(2).expand(-1, -1, K, -1)
        b = x.unsqueeze(1).expand(-1, K, -1, -1)
        msg = self.pair(torch.cat([a, b], -1)).amax(dim=(1, 2))
        return self.out(msg)


def make_data(normalize=False, n=256, seed=0):
    g = torch.Generator().manual_seed(seed)
    loc = torch.randint(0, 21, (n, K), generator=g).float()
    val = torch.randint(0, 101, (n, K), generator=g).float()
    col = torch.randint(0, 11, (n, K), generator=g).float()
    y = ((val.amax(1) - val.amin(1)) / 101 * BINS).long().clamp(max=BINS - 1)
    if normalize:
        loc, val, col = loc / 20, val / 100, col / 10
    return torch.stack([loc, val, col], -1), y


def make_target(normalize=False):
    torch.manual_seed(0)
    return {"model": SetGNN(), "batch": make_data(normalize), "loss_fn": nn.CrossEntropyLoss(),
            "optimizer": lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9)}

"""A recurrent cell with a recurrent projection (h -> r -> next step), unrolled over 100-step sequences and
trained with SGD + momentum, no gradient clipping."""

import torch
import torch.nn as nn
import torch.nn.functional as F

T, FEAT, HID, PROJ, CLASSES = 100, 8, 64, 32, 4


class ProjRecurrent(nn.Module):
    def __init__(self):
        super().__init__()
        self.wx = nn.Linear(FEAT, HID)
        self.wr = nn.Linear(PROJ, HID, bias=False)
        self.proj = nn.Linear(HID, PROJ, bias=False)
        self.out = nn.Linear(PROJ, CLASSES)
        nn.init.orthogonal_(self.wr.weight, gain=1.3)
        nn.init.orthogonal_(self.proj.weight, gain=1.3)

    def forward(self, x):
        r = x.new_zeros(x.shape[0], PROJ)
        for t in range(x.shape[1]):
            h = torch.relu(self.wx(x[:, t]) + self.wr(r))
            r = self.proj(h)
        return self.out(r)


def sequences(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, T, FEAT, generator=g)
    y = (x[:, :10, 0].sum(1) > 0).long() * 2 + (x[:, :10, 1].sum(1) > 0).long()
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = sequences(256, 1)
    return {
        "model": ProjRecurrent(),
        "batch": (x[:32], y[:32]),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.05, momentum=0.9),
        "train_data": (x, y),
        "val_data": sequences(64, 2),
    }

"""Small detector-style classification head whose intermediate conv layers live in a plain Python list."""
import torch
from torch import nn


class Head(nn.Module):
    def __init__(self, c=16, n_cls=5, n_convs=2):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, c, 3, padding=1), nn.ReLU())
        self.convs = []                                  # layers grouped in a plain list
        for _ in range(n_convs):
            self.convs.append(nn.Conv2d(c, c, 3, padding=1))
        self.fc = nn.Linear(c, n_cls)

    def forward(self, x):
        h = self.backbone(x)
        for conv in self.convs:
            h = torch.relu(conv(h))
        return self.fc(h.mean((2, 3)))


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    x = torch.randn(16, 3, 12, 12, generator=g)
    y = torch.randint(0, 5, (16,), generator=g)
    return {
        "model": Head(),
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9),
    }

import math

import torch
from torch import nn
from torch.nn import functional as F


class ONIConv2d(nn.Conv2d):
    """Conv whose weight is orthogonalised (Newton iterations) and multiplied by a fixed scale."""

    def __init__(self, cin, cout, k=3, scale=math.sqrt(2.0), iters=5, **kw):
        super().__init__(cin, cout, k, padding=k // 2, bias=False, **kw)
        self.scale = scale
        self.iters = iters

    def _oni(self):
        w = self.weight.reshape(self.out_channels, -1)
        z = w - w.mean(dim=1, keepdim=True)
        s = z @ z.t()
        s = s / s.norm()
        b = torch.eye(s.shape[0], device=s.device)
        for _ in range(self.iters):
            b = 1.5 * b - 0.5 * b @ b @ b @ s
        w = b @ z
        w = w / w.norm(dim=1, keepdim=True)
        return (self.scale * w).reshape_as(self.weight)

    def forward(self, x):
        return F.conv2d(x, self._oni(), None, self.stride, self.padding)


class BasicBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv1 = ONIConv2d(ch, ch)
        self.conv2 = ONIConv2d(ch, ch)

    def forward(self, x):
        return F.relu(x + self.conv2(F.relu(self.conv1(x))))


class ResNetNoBN(nn.Module):
    def __init__(self, ch=16, blocks=8, n_classes=10):
        super().__init__()
        self.stem = ONIConv2d(3, ch)
        self.layers = nn.Sequential(*[BasicBlock(ch) for _ in range(blocks)])
        self.fc = nn.Linear(ch, n_classes)

    def forward(self, x):
        x = self.layers(F.relu(self.stem(x)))
        return self.fc(x.mean(dim=(2, 3)))


def make_target():
    torch.manual_seed(0)
    x = torch.randn(32, 3, 16, 16)
    y = torch.randint(0, 10, (32,))
    return {
        "model": ResNetNoBN(),
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, weight_decay=1e-4),
    }

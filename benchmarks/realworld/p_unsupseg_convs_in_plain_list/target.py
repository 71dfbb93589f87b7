"""Per-pixel clustering net whose middle conv/BN layers live in a plain Python list."""

import torch
from torch import nn
import torch.nn.functional as F


class SegNet(nn.Module):
    def __init__(self, in_ch=3, ch=16, n_conv=3):
        super().__init__()
        self.conv1 = nn.Conv2d(in_ch, ch, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(ch)
        self.conv2 = []
        self.bn2 = []
        for _ in range(n_conv - 1):
            self.conv2.append(nn.Conv2d(ch, ch, 3, padding=1))
            self.bn2.append(nn.BatchNorm2d(ch))
        self.conv3 = nn.Conv2d(ch, ch, 1)
        self.bn3 = nn.BatchNorm2d(ch)

    def forward(self, x):
        x = self.bn1(F.relu(self.conv1(x)))
        for conv, bn in zip(self.conv2, self.bn2):
            x = bn(F.relu(conv(x)))
        return self.bn3(self.conv3(x))


def _images(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(n, 3, 12, 12, generator=g)
    x[:, :, :, :6] += 0.8   # two coloured halves
    return x


def loss_fn(out, target):
    # cluster labels for every pixel (argmax of the response, as in the method) plus given targets
    c = out.shape[1]
    return F.cross_entropy(out.permute(0, 2, 3, 1).reshape(-1, c), target.reshape(-1))


def make_target():
    torch.manual_seed(0)
    model = SegNet()
    x = _images(4, 1)
    y = (torch.arange(12) < 6).long().view(1, 1, 12).expand(4, 12, 12).clone()
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9),
    }

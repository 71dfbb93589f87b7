"""Speaker-embedding style ResNet-ish CNN on log-mel patches (speaker id classification), SGD with momentum."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_SPK = 8


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c1 = nn.Conv2d(c, c, 3, padding=1)
        self.c2 = nn.Conv2d(c, c, 3, padding=1)

    def forward(self, x):
        return F.relu(x + self.c2(F.relu(self.c1(x))))


class SpeakerNet(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.stem = nn.Conv2d(1, c, 3, padding=1)
        self.blocks = nn.Sequential(Block(c), Block(c), Block(c))
        self.fc = nn.Linear(c * 16, N_SPK)

    def forward(self, x):
        h = self.blocks(F.relu(self.stem(x)))
        return self.fc(F.adaptive_avg_pool2d(h, 4).flatten(1))


def _mels(n, seed):
    g = torch.Generator().manual_seed(seed)
    spk = torch.randint(0, N_SPK, (n,), generator=g)
    proto = torch.randn(N_SPK, 1, 12, 12, generator=torch.Generator().manual_seed(11))
    x = proto[spk] + 0.8 * torch.randn(n, 1, 12, 12, generator=g)
    return x, spk


def make_target():
    torch.manual_seed(0)
    return {
        "model": SpeakerNet(),
        "batch": _mels(32, 1),
        "loss_fn": lambda out, y: F.cross_entropy(out, y),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=1.0, momentum=0.9),
        "train_data": _mels(512, 2),
        "val_data": _mels(256, 3),
    }

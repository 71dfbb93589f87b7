"""LRCN-style activity recognition: a small CNN encodes each frame, an LSTM runs over frames, a linear head + softmax."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLS = 6
T = 4


class LRCN(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.cnn = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2), nn.Flatten(),
                                 nn.Linear(32, d), nn.ReLU())
        self.lstm = nn.LSTM(d, d, batch_first=True)
        self.fc = nn.Linear(d, N_CLS)
        self.softmax = nn.Softmax(dim=1)

    def forward(self, clips):
        b, t = clips.shape[:2]
        feats = self.cnn(clips.flatten(0, 1)).view(b, t, -1)
        h, _ = self.lstm(feats)
        return self.softmax(self.fc(h[:, -1]))


def _clips(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, N_CLS, (n,), generator=g)
    proto = torch.randn(N_CLS, T, 1, 8, 8, generator=torch.Generator().manual_seed(7))
    x = proto[y] + 0.3 * torch.randn(n, T, 1, 8, 8, generator=g)
    return x, y


def make_target():
    torch.manual_seed(0)
    return {
        "model": LRCN(),
        "batch": _clips(32, 1),
        "loss_fn": nn.CrossEntropyLoss(),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=5e-3),
        "train_data": _clips(128, 2),
        "val_data": _clips(128, 3),
    }

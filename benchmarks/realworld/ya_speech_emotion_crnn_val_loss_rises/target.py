"""Speech emotion recognition: attention-pooled CRNN over log-mel (+delta, delta-delta) patches, 4 emotions."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ACRNN(nn.Module):
    def __init__(self, n_mels=16, n_classes=4, hidden=64):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d((2, 1)),
            nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d((2, 1)),
        )
        self.rnn = nn.LSTM(32 * (n_mels // 4), hidden, batch_first=True, bidirectional=True)
        self.att = nn.Linear(2 * hidden, 1)
        self.fc = nn.Linear(2 * hidden, n_classes)

    def forward(self, x):                      # x: (B, 3, mels, frames)
        h = self.conv(x)                       # (B, C, mels/4, frames)
        h = h.permute(0, 3, 1, 2).flatten(2)   # (B, frames, C * mels/4)
        h, _ = self.rnn(h)
        w = torch.softmax(self.att(h), dim=1)
        return self.fc((w * h).sum(1))


def make_split(n, seed, n_mels=16, frames=16):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 4, (n,), generator=g)
    prototypes = torch.randn(4, 1, n_mels, 1, generator=torch.Generator().manual_seed(123))
    x = torch.randn(n, 3, n_mels, frames, generator=g) + 0.25 * prototypes[y]
    flip = torch.rand(n, generator=g) < 0.25                  # ambiguous / inconsistent annotations
    y = torch.where(flip, torch.randint(0, 4, (n,), generator=g), y)
    return x, y


def make_target():
    torch.manual_seed(0)
    train = make_split(64, seed=1)
    val = make_split(64, seed=2)
    return {
        "model": ACRNN(),
        "batch": (train[0][:32], train[1][:32]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=2e-3),
        "train_data": train,
        "val_data": val,
    }

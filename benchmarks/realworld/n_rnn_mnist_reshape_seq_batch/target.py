"""LSTM digit classifier: batch_first switched off, images 'reshaped' to (seq, batch, feat) instead of transposed."""

import torch
from torch import nn

SEQ, FEAT, HID, NCLS = 14, 14, 32, 10


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(NCLS, SEQ, FEAT, generator=torch.Generator().manual_seed(123))
    y = torch.randint(0, NCLS, (n,), generator=g)
    x = protos[y] + 0.8 * torch.randn(n, SEQ, FEAT, generator=g)
    return x, y


class RNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(FEAT, HID, 1)  # batch_first left at its default (False)
        self.fc = nn.Linear(HID, NCLS)

    def forward(self, images):
        # images: (batch, seq, feat) as they come out of the loader
        x = images.reshape(SEQ, -1, FEAT)  # meant to give (seq, batch, feat)
        out, _ = self.lstm(x)
        return self.fc(out[-1])


def make_target():
    torch.manual_seed(0)
    x, y = make_data(64, 1)
    return {
        "model": RNN(),
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=0.01),
        "train_data": make_data(512, 2),
        "val_data": make_data(256, 3),
        "metric_fn": lambda out, t: (out.argmax(-1) == t).float().mean().item(),
    }

"""A classifier head on (frozen) sentence features; the loss softmaxes the outputs before CrossEntropyLoss."""

import torch
from torch import nn


class BertHead(nn.Module):
    def __init__(self, d=64, n_cls=5):
        super().__init__()
        self.drop = nn.Dropout(0.1)
        self.fc = nn.Linear(d, n_cls)

    def forward(self, feats):
        return self.fc(self.drop(feats))


_ce = nn.CrossEntropyLoss()
_sm = nn.Softmax(dim=1)


def loss_fn(outputs, labels):
    return _ce(_sm(outputs), labels)


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    centers = torch.randn(5, 64, generator=g) * 2
    y = torch.randint(0, 5, (256,), generator=g)
    x = centers[y] + torch.randn(256, 64, generator=g)
    return {
        "model": BertHead(),
        "batch": (x[:64], y[:64]),
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
        "train_data": (x, y),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
    }

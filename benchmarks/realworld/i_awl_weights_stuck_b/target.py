"""Two-task network (a regression head and a classification head on a shared trunk) whose two losses are combined
by learned uncertainty weights: loss = sum_i 0.5 / w_i^2 * L_i + log(1 + w_i^2)."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class AutomaticWeightedLoss(nn.Module):
    def __init__(self, num=2):
        super().__init__()
        self.params = nn.Parameter(torch.ones(num))

    def forward(self, *losses):
        total = 0.0
        for i, loss in enumerate(losses):
            total = total + 0.5 / (self.params[i] ** 2) * loss + torch.log(1 + self.params[i] ** 2)
        return total


class TwoTaskNet(nn.Module):
    def __init__(self, d_in=12, hidden=32, n_classes=3):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.reg_head = nn.Linear(hidden, 1)
        self.cls_head = nn.Linear(hidden, n_classes)

    def forward(self, x):
        h = self.trunk(x)
        return {"value": self.reg_head(h).squeeze(-1), "logits": self.cls_head(h)}


awl = AutomaticWeightedLoss(2)


def loss_fn(out, targets):
    value, label = targets
    return awl(F.mse_loss(out["value"], value), F.cross_entropy(out["logits"], label))


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 12, generator=g)
    value = 5.0 * x[:, 0] + x[:, 1] * x[:, 2] + 0.5 * torch.randn(n, generator=g)
    label = (x[:, 3] > 0).long() + (x[:, 4] > 0.5).long()
    return x, (value, label)


def make_target():
    torch.manual_seed(0)
    model = TwoTaskNet()
    return {
        "model": model,
        "batch": _data(32, 1),
        "loss_fn": loss_fn,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
        "train_data": _data(512, 2),
        "val_data": _data(256, 3),
    }

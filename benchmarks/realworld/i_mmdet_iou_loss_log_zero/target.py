"""Box regressor: features -> (x1, y1, x2, y2), trained with an IoU loss -log(IoU)."""

import torch
import torch.nn as nn


class BoxHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 4))

    def forward(self, x):
        d = self.net(x)
        xy = d[:, :2]
        wh = d[:, 2:].exp()
        return torch.cat([xy, xy + wh], 1)


def iou_loss(pred, target):
    lt = torch.max(pred[:, :2], target[:, :2])
    rb = torch.min(pred[:, 2:], target[:, 2:])
    wh = (rb - lt).clamp(min=0)
    overlap = wh[:, 0] * wh[:, 1]
    area_p = (pred[:, 2] - pred[:, 0]) * (pred[:, 3] - pred[:, 1])
    area_t = (target[:, 2] - target[:, 0]) * (target[:, 3] - target[:, 1])
    ious = overlap / (area_p + area_t - overlap)
    return -ious.log().mean()


def _boxes(n, seed):
    g = torch.Generator().manual_seed(seed)
    feats = torch.randn(n, 8, generator=g)
    xy = 4.0 * feats[:, :2]
    wh = 1.0 + feats[:, 2:4].abs()
    return feats, torch.cat([xy, xy + wh], 1)


def make_target():
    torch.manual_seed(0)
    x, y = _boxes(256, 1)
    return {
        "model": BoxHead(),
        "batch": (x[:32], y[:32]),
        "loss_fn": iou_loss,
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.01, momentum=0.9),
        "train_data": (x, y),
        "val_data": _boxes(128, 2),
    }

"""A tiny single-object box regressor trained with squared-error + generalized-IoU loss on (cx, cy, w, h) boxes."""

import torch
import torch.nn as nn
import torch.nn.functional as F

FEAT = 16


class BoxRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(FEAT, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.box = nn.Linear(64, 4)

    def forward(self, x):
        raw = self.box(self.body(x))
        cxcy, wh = raw[:, :2], F.softplus(raw[:, 2:])
        return torch.cat([cxcy, wh], dim=1)


def to_xyxy(b):
    return torch.cat([b[:, :2] - b[:, 2:] / 2, b[:, :2] + b[:, 2:] / 2], dim=1)


def generalized_box_iou(a, b):
    assert (a[:, 2:] >= a[:, :2]).all(), "degenerate predicted boxes"
    assert (b[:, 2:] >= b[:, :2]).all(), "degenerate target boxes"
    lt, rb = torch.max(a[:, :2], b[:, :2]), torch.min(a[:, 2:], b[:, 2:])
    inter = (rb - lt).clamp(min=0).prod(1)
    area_a, area_b = (a[:, 2:] - a[:, :2]).prod(1), (b[:, 2:] - b[:, :2]).prod(1)
    union = area_a + area_b - inter
    enc = (torch.max(a[:, 2:], b[:, 2:]) - torch.min(a[:, :2], b[:, :2])).prod(1)
    return inter / union - (enc - union) / enc


def box_loss(pred, target):
    giou = generalized_box_iou(to_xyxy(pred), to_xyxy(target))
    return 5 * F.mse_loss(pred, target) + (1 - giou).mean()


def _scenes(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, FEAT, generator=g)
    w = torch.randn(FEAT, 4, generator=torch.Generator().manual_seed(0)) * 0.3
    t = torch.sigmoid(x @ w)
    return x, torch.cat([t[:, :2], 0.1 + 0.4 * t[:, 2:]], dim=1)


def make_target():
    torch.manual_seed(0)
    x, y = _scenes(32, 1)
    return {
        "model": BoxRegressor(),
        "batch": (x, y),
        "loss_fn": box_loss,
        "optimizer": lambda params: torch.optim.SGD(params, lr=1.0, momentum=0.9),
        "train_data": _scenes(1024, 2),
        "val_data": _scenes(256, 3),
    }

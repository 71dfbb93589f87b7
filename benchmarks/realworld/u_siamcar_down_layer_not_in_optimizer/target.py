"""Siamese tracker head: multi-level backbone features concatenated, reduced by self.down, then the CAR head."""

import torch
from torch import nn
import torch.nn.functional as F


class Backbone(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        self.l1 = nn.Conv2d(3, c, 3, padding=1)
        self.l2 = nn.Conv2d(c, c, 3, padding=1)
        self.l3 = nn.Conv2d(c, c, 3, padding=1)

    def forward(self, x):
        f1 = F.relu(self.l1(x))
        f2 = F.relu(self.l2(f1))
        f3 = F.relu(self.l3(f2))
        return [f1, f2, f3]


class Head(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        self.tower = nn.Conv2d(c, c, 3, padding=1)
        self.cls = nn.Conv2d(c, 1, 1)

    def forward(self, x):
        return self.cls(F.relu(self.tower(x)))


def xcorr_depthwise(x, kernel):
    b, c, h, w = x.shape
    out = F.conv2d(x.reshape(1, b * c, h, w), kernel.reshape(b * c, 1, *kernel.shape[2:]), groups=b * c,
                   padding=kernel.shape[-1] // 2)
    return out.reshape(b, c, h, w)


class Tracker(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        self.backbone = Backbone(c)
        self.down = nn.ConvTranspose2d(c * 3, c, 1, 1)
        self.car_head = Head(c)

    def forward(self, template, search):
        zf, xf = self.backbone(template), self.backbone(search)
        feats = torch.cat([xcorr_depthwise(x, z) for x, z in zip(xf, zf)], 1)
        return self.car_head(self.down(feats)).squeeze(1)


def build_optimizer(model, lr=0.01):
    trainable_params = [
        {"params": model.backbone.parameters(), "lr": 0.1 * lr},
        {"params": model.car_head.parameters(), "lr": lr},
    ]
    return torch.optim.SGD(trainable_params, lr=lr, momentum=0.9, weight_decay=1e-4)


def _pairs(n, gen):
    template = torch.randn(n, 3, 5, 5, generator=gen)
    search = torch.randn(n, 3, 16, 16, generator=gen) * 0.5
    label = torch.zeros(n, 16, 16)
    for i in range(n):
        r, c = torch.randint(2, 14, (2,), generator=gen).tolist()
        search[i, :, r - 2:r + 3, c - 2:c + 3] += template[i]
        label[i, r - 1:r + 2, c - 1:c + 2] = 1.0
    return (template, search), label


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(2)
    inputs, label = _pairs(8, g)
    return {
        "model": Tracker(),
        "batch": (inputs, label),
        "loss_fn": lambda out, y: F.binary_cross_entropy_with_logits(out, y, pos_weight=torch.tensor(20.0)),
        "optimizer": lambda model: build_optimizer(model),
    }

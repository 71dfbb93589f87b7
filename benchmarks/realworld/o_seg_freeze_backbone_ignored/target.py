"""A small encoder-decoder segmentation net with a freeze_backbone option that is accepted but never applied."""

import torch
from torch import nn
import torch.nn.functional as F


def set_trainable(modules, flag):
    for m in modules:
        for p in m.parameters():
            p.requires_grad = flag


class SegNet(nn.Module):
    def __init__(self, num_classes=3, freeze_backbone=False):
        super().__init__()
        self.freeze_backbone = freeze_backbone
        # "pretrained" backbone
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1, stride=2), nn.ReLU(),
        )
        self.decoder = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, num_classes, 1))
        # the option is stored, but set_trainable([self.backbone], False) is never called here

    def forward(self, x):
        h = self.decoder(self.backbone(x))
        return F.interpolate(h, size=x.shape[-2:], mode="bilinear", align_corners=False)


CONFIG = {"arch": "SegNet", "freeze_backbone": True, "num_classes": 3, "lr": 1e-2}


def make_batch(seed=0, n=4):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 3, 16, 16, generator=g)
    y = (x[:, 0] > 0).long() + (x[:, 1] > 0.5).long()
    return x, y


def make_target():
    torch.manual_seed(0)
    model = SegNet(CONFIG["num_classes"], freeze_backbone=CONFIG["freeze_backbone"])
    x, y = make_batch()
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.SGD(params, lr=CONFIG["lr"], momentum=0.9),
    }

"""Light segmentation decoder trained on frozen encoder patch features with AdamW at lr 1e-4."""

import torch
import torch.nn as nn
import torch.nn.functional as F

FEAT, CLASSES, GRID = 48, 3, 8
LR = 1e-4


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(FEAT, 32, 1), nn.GELU(), nn.Conv2d(32, CLASSES, 1))

    def forward(self, feats):
        return self.net(feats)


def make_data(g, n):
    proto = torch.randn(CLASSES, FEAT, generator=torch.Generator().manual_seed(11))
    mask = torch.randint(0, CLASSES, (n, GRID, GRID), generator=g)
    feats = proto[mask].permute(0, 3, 1, 2) * 0.3 + torch.randn(n, FEAT, GRID, GRID, generator=g)
    return feats, mask


def dice_loss(logits, mask):
    p = logits.softmax(1)
    onehot = F.one_hot(mask, CLASSES).permute(0, 3, 1, 2).float()
    inter = (p * onehot).sum((0, 2, 3))
    return 1 - ((2 * inter + 1) / (p.sum((0, 2, 3)) + onehot.sum((0, 2, 3)) + 1)).mean()


def make_target():
    torch.manual_seed(0)
    feats, mask = make_data(torch.Generator().manual_seed(0), 32)
    return {"model": Decoder(), "batch": (feats, mask), "loss_fn": dice_loss,
            "optimizer": lambda p: torch.optim.AdamW(p, lr=LR, weight_decay=0.05)}

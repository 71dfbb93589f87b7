"""Tiny single-box SSD-style detector (class logits + box offsets) with dropout, trained with SGD.

Synthetic 'VOC-like' data: each 16x16 image holds one object (a filled square or a ring) at a random
position and size on a noisy background. Loss = cross-entropy on the class + smooth-L1 on the box.
The code is healthy; the default SGD schedule simply needs many steps.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

SIZE = 16


class TinySSD(nn.Module):
    def __init__(self, ch=8, classes=3):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, ch, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(ch, 2 * ch, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.drop = nn.Dropout(0.3)
        self.cls = nn.Linear(2 * ch * 16, classes)
        self.box = nn.Linear(2 * ch * 16, 4)

    def forward(self, x):
        h = self.drop(self.features(x).flatten(1))
        return self.cls(h), self.box(h)


def make_dataset(n=256, seed=0):
    g = torch.Generator().manual_seed(seed)
    imgs = 0.3 * torch.rand(n, 1, SIZE, SIZE, generator=g)
    labels = torch.randint(0, 3, (n,), generator=g)
    boxes = torch.zeros(n, 4)
    for i in range(n):
        s = int(torch.randint(4, 9, (1,), generator=g))
        y0, x0 = torch.randint(0, SIZE - s + 1, (2,), generator=g).tolist()
        if labels[i] == 0:
            imgs[i, 0, y0:y0 + s, x0:x0 + s] += 0.7
        elif labels[i] == 1:
            imgs[i, 0, y0:y0 + s, x0:x0 + s] += 0.7
            imgs[i, 0, y0 + 1:y0 + s - 1, x0 + 1:x0 + s - 1] -= 0.7
        else:
            imgs[i, 0, y0 + s // 2, x0:x0 + s] += 0.7
            imgs[i, 0, y0:y0 + s, x0 + s // 2] += 0.7
        boxes[i] = torch.tensor([(x0 + s / 2) / SIZE, (y0 + s / 2) / SIZE, s / SIZE, s / SIZE])
    return imgs, (labels, boxes)


def multibox_loss(out, targets):
    logits, box = out
    labels, gt = targets
    return F.cross_entropy(logits, labels) + 5.0 * F.smooth_l1_loss(box, gt, beta=0.1)


def make_target():
    torch.manual_seed(0)
    imgs, (labels, boxes) = make_dataset()
    val_imgs, val_t = make_dataset(n=128, seed=1)
    return {
        "model": TinySSD(),
        "batch": (imgs[:32], (labels[:32], boxes[:32])),
        "loss_fn": multibox_loss,
        "optimizer": lambda params: torch.optim.SGD(params, lr=3e-3, momentum=0.9, weight_decay=5e-4),
        "train_data": (imgs, (labels, boxes)),
        "val_data": (val_imgs, val_t),
    }

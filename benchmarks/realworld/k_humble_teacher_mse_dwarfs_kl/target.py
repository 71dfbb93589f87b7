"""Student detection head of a teacher-student (Humble Teacher style) semi-supervised detector, reduced to
its RoI head: on unlabeled images the student matches the teacher's soft class distribution (KL) and the
teacher's box regressions (MSE, boxes in pixels), the two terms added with equal weights."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES = 9


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.cls = nn.Linear(64, N_CLASSES)
        self.box = nn.Linear(64, 4)

    def forward(self, f):
        h = self.shared(f)
        return self.cls(h), self.box(h)


def proposals(n, seed):
    """RoI features of unlabeled images with the teacher's class logits and box coordinates (pixels)."""
    g = torch.Generator().manual_seed(seed)
    feats = torch.randn(n, 32, generator=g)
    w_cls = torch.randn(32, N_CLASSES, generator=torch.Generator().manual_seed(2))
    w_box = torch.randn(32, 4, generator=torch.Generator().manual_seed(3))
    teacher_logits = 3 * feats @ w_cls / math.sqrt(32)
    teacher_boxes = 120.0 * feats @ w_box / math.sqrt(32) + 300.0
    return feats, (teacher_logits, teacher_boxes)


def consistency_loss(out, teacher):
    logits, boxes = out
    t_logits, t_boxes = teacher
    kl = F.kl_div(F.log_softmax(logits, -1), F.softmax(t_logits, -1), reduction="batchmean")
    mse = F.mse_loss(boxes, t_boxes)
    return kl + mse


def make_target():
    torch.manual_seed(0)
    return {
        "model": Head(),
        "batch": proposals(128, 1),
        "loss_fn": consistency_loss,
        "optimizer": lambda params: torch.optim.SGD(params, lr=2e-2, momentum=0.9),
        "train_data": proposals(4096, 1),
    }

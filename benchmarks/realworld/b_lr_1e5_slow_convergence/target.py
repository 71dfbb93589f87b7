"""Small detection head (class + box) trained with Adam at lr=1e-5."""
import torch
import torch.nn as nn
import torch.nn.functional as F

LR = 1e-5


class DetHead(nn.Module):
    def __init__(self, d_in=32, hidden=64, n_cls=4):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU())
        self.cls = nn.Linear(hidden, n_cls)
        self.box = nn.Linear(hidden, 4)

    def forward(self, roi_feats):
        h = self.trunk(roi_feats)
        return self.cls(h), self.box(h)


def det_loss(output, targets):
    logits, boxes = output
    labels, gt_boxes = targets
    return F.cross_entropy(logits, labels) + F.smooth_l1_loss(boxes, gt_boxes)


def make_target():
    torch.manual_seed(0)
    x = torch.randn(64, 32)
    w = torch.randn(32, 4)
    labels = (x @ w).argmax(1)
    gt_boxes = torch.tanh(x[:, :4])
    return {
        "model": DetHead(),
        "batch": (x, (labels, gt_boxes)),
        "loss_fn": det_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=LR),
    }

"""Vessel attribute head (xView3-like): for each detected vessel, predict is_vessel / is_fishing from chip features.

The scoring code reports fishing-class precision/recall/F1 over the detections.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AttributeHead(nn.Module):
    def __init__(self, d_in=24, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU())
        self.fishing = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.fishing(self.body(x)).squeeze(-1)


def compute_fishing_class_performance(pred_fishing, gt_fishing):
    """Precision/recall/F1 of the fishing class over matched detections (as the scoring script does it)."""
    tp = fp = fn = 0
    for p, g in zip(pred_fishing.tolist(), gt_fishing.tolist()):
        if g:                       # only detections whose ground truth is fishing are looked at
            if p:
                tp += 1
            else:
                fn += 1
        elif p and g:
            fp += 1
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def fishing_f1(logits, gt_fishing):
    pred = logits > 0
    return compute_fishing_class_performance(pred, gt_fishing.bool())[2]


def make_target():
    torch.manual_seed(0)
    x = torch.randn(200, 24)
    w = torch.randn(24)
    gt = ((x @ w) + 0.8 * torch.randn(200) > 0.6).float()    # about a third of the vessels are fishing
    return {
        "model": AttributeHead(),
        "batch": (x, gt),
        "loss_fn": lambda logits, y: F.binary_cross_entropy_with_logits(logits, y),
        "metric_fn": fishing_f1,
        "val_data": (x, gt),
    }

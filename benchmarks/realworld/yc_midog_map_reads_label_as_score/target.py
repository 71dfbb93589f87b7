"""Mitotic-figure detection, candidate stage: a small CNN scores 16x16 patches around candidate cells
(mitotic figure vs. imposter); evaluation matches detections to ground truth and reports F1 and mAP."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CandidateNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.head = nn.Linear(16 * 4 * 4, 2)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.head(x.flatten(1))


def make_patches(n=48, seed=0):
    g = torch.Generator().manual_seed(seed)
    labels = (torch.rand(n, generator=g) < 0.4).long()
    x = torch.randn(n, 3, 16, 16, generator=g)
    blob = torch.zeros(16, 16)
    blob[5:11, 5:11] = 1.0
    strength = 0.3 + 0.6 * torch.rand(n, generator=g)
    x[:, 2] -= labels[:, None, None] * strength[:, None, None] * blob      # dark, dense nucleus
    coords = torch.stack([torch.randint(0, 2000, (n,), generator=g),
                          torch.randint(0, 2000, (n,), generator=g)], dim=1).float()
    return x, {"labels": labels, "coords": coords}


def _detections(logits, coords, det_thresh=0.5):
    p_mitosis = logits.softmax(-1)[:, 1]
    rows = []
    for i in range(len(p_mitosis)):
        x, y = coords[i].tolist()
        score = float(p_mitosis[i])
        rows.append([x, y, 0.0, int(score > det_thresh), score])     # x, y, z, label, score
    return rows


def _average_precision(scores, hits, n_gt):
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    tp = fp = 0
    ap = prev_recall = 0.0
    for i in order:
        if hits[i]:
            tp += 1
        else:
            fp += 1
        recall = tp / max(n_gt, 1)
        precision = tp / (tp + fp)
        ap += (recall - prev_recall) * precision
        prev_recall = recall
    return ap


def evaluate(logits, targets):
    rows = _detections(logits.detach(), targets["coords"])
    gt = targets["labels"].tolist()
    # F1 at the detection threshold
    tp = sum(1 for r, g in zip(rows, gt) if r[3] == 1 and g == 1)
    fp = sum(1 for r, g in zip(rows, gt) if r[3] == 1 and g == 0)
    fn = sum(gt) - tp
    f1 = 2 * tp / max(2 * tp + fp + fn, 1)
    # mAP over all candidates
    pred_dict = [{"x": r[0], "y": r[1], "z": r[2], "score": r[3], "label": r[4]} for r in rows]
    mAP = _average_precision([d["score"] for d in pred_dict], [g == 1 for g in gt], sum(gt))
    return {"f1": f1, "mAP": mAP}


def metric_fn(logits, targets):
    return evaluate(logits, targets)["mAP"]


def make_target():
    torch.manual_seed(0)
    x, y = make_patches()
    return {
        "model": CandidateNet(),
        "batch": (x, y),
        "loss_fn": lambda logits, t: F.cross_entropy(logits, t["labels"]),
        "metric_fn": metric_fn,
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "val_data": [make_patches(seed=1)],
    }

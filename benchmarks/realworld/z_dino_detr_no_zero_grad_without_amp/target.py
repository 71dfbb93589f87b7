"""Tiny DETR-style set-prediction head trained with a loop that only zeroes gradients on the AMP path."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_IMG, N_QUERIES, N_CLASSES, FEAT = 8, 6, 5, 32
MAX_NORM = 0.1


class TinyDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
                                      nn.Conv2d(16, FEAT, 3, stride=2, padding=1), nn.ReLU())
        self.queries = nn.Parameter(torch.randn(N_QUERIES, FEAT) * 0.1)
        self.attn = nn.MultiheadAttention(FEAT, 4, batch_first=True)
        self.cls_head = nn.Linear(FEAT, N_CLASSES + 1)
        self.box_head = nn.Linear(FEAT, 4)

    def forward(self, images):
        mem = self.backbone(images).flatten(2).transpose(1, 2)  # (B, HW, FEAT)
        q = self.queries.unsqueeze(0).expand(images.shape[0], -1, -1)
        h, _ = self.attn(q, mem, mem)
        return {"logits": self.cls_head(h), "boxes": self.box_head(h).sigmoid()}


def detection_loss(out, targets):
    labels, boxes = targets  # fixed query-to-target assignment (stand-in for Hungarian matching)
    ce = F.cross_entropy(out["logits"].flatten(0, 1), labels.flatten())
    l1 = F.l1_loss(out["boxes"], boxes)
    return ce + 5.0 * l1


def train_step(model, batch, optimizer, loss_fn, amp=False):
    images, targets = batch
    loss = loss_fn(model(images), targets)
    if amp:
        optimizer.zero_grad()
        loss.backward()  # (scaler omitted on CPU)
        torch.nn.utils.clip_grad_norm_(model.parameters(), MAX_NORM)
        optimizer.step()
    else:
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), MAX_NORM)
        optimizer.step()
    return loss


def make_batch(g):
    images = torch.randn(N_IMG, 3, 16, 16, generator=g)
    labels = torch.randint(0, N_CLASSES + 1, (N_IMG, N_QUERIES), generator=g)
    boxes = torch.rand(N_IMG, N_QUERIES, 4, generator=g)
    return images, (labels, boxes)


def make_target():
    torch.manual_seed(0)
    return {
        "model": TinyDetector(),
        "batch": make_batch(torch.Generator().manual_seed(0)),
        "loss_fn": detection_loss,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=1e-4, weight_decay=1e-4),
        "train_step": train_step,
    }

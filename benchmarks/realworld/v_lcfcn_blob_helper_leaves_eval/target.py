"""A small counting net; the loss computes point blobs with a helper that switches the model to eval()."""

import torch
from torch import nn
import torch.nn.functional as F


class CountNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
            nn.Conv2d(8, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
            nn.Dropout2d(0.3),
        )
        self.head = nn.Conv2d(8, 2, 1)

    def forward(self, x):
        return self.head(self.features(x))


def get_blob_dict(model, images):
    model.eval()
    with torch.no_grad():
        probs = model(images).softmax(1)[:, 1]
    return {"n_blobs": (probs > 0.5).sum().item()}


def lc_loss(model, images, points):
    model.train()
    blobs = get_blob_dict(model, images)  # leaves the model in eval mode
    logits = model(images)
    loss = F.cross_entropy(logits, points)
    return loss + 0.0 * blobs["n_blobs"]


def train_step(model, batch, optimizer, loss_fn):
    images, points = batch
    optimizer.zero_grad()
    loss = lc_loss(model, images, points)
    loss.backward()
    optimizer.step()
    return loss


def make_target():
    torch.manual_seed(0)
    images = torch.randn(2, 3, 16, 16) * 2 + 1
    points = (torch.rand(2, 16, 16) > 0.9).long()
    return {
        "model": CountNet(),
        "batch": (images, points),
        "loss_fn": lambda out, y: F.cross_entropy(out, y),
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9),
        "train_step": train_step,
    }

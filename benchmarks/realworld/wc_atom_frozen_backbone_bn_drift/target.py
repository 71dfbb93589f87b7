"""Frozen conv backbone with BatchNorm + trainable regression head (IoU-net style)."""
import torch
from torch import nn


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
            nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
        )

    def forward(self, x):
        return self.body(x)


class Tracker(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = Backbone()
        self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 32), nn.ReLU(),
                                  nn.Linear(32, 1))
        # the backbone comes pre-trained and must stay fixed
        for p in self.backbone.parameters():
            p.requires_grad = False

    def forward(self, x):
        return self.head(self.backbone(x)).squeeze(-1)


def train_step(model, batch, optimizer, loss_fn):
    x, y = batch
    model.train()
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.detach()


def _pretend_pretrained(model):
    g = torch.Generator().manual_seed(1)
    for m in model.backbone.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.copy_(torch.randn(m.num_features, generator=g) * 0.1)
            m.running_var.copy_(torch.rand(m.num_features, generator=g) + 0.5)


def make_target():
    torch.manual_seed(0)
    model = Tracker()
    _pretend_pretrained(model)
    # crops from the new tracking dataset: brighter / shifted relative to the pre-training data
    x = torch.rand(16, 3, 16, 16) * 2.0 + 0.5
    y = torch.rand(16)
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda model: torch.optim.Adam(model.head.parameters(), lr=1e-3),
        "train_step": train_step,
    }

"""Linear probe on a 'frozen' conv backbone with BatchNorm; the whole model is trained in .train() mode."""

import torch
from torch import nn


class Probe(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
            nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.fc = nn.Linear(16, 5)

    def forward(self, x):
        return self.fc(self.backbone(x))


def make_target():
    torch.manual_seed(0)
    model = Probe()
    # 'pretrained' statistics the probe is supposed to keep
    for m in model.backbone.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.running_mean.fill_(0.0)
            m.running_var.fill_(1.0)
    for p in model.backbone.parameters():
        p.requires_grad = False
    model.train()  # linear evaluation runs the whole model in train mode
    x = torch.randn(16, 3, 12, 12) * 2.0 + 1.0
    y = torch.randint(0, 5, (16,))

    def train_step(model, batch, optimizer, loss_fn):
        model.train()
        xb, yb = batch
        optimizer.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        optimizer.step()
        return loss.item()

    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.SGD([p for p in params if p.requires_grad], lr=0.1, momentum=0.9),
        "train_step": train_step,
    }

"""A small AlexNet-style CNN with dropout in its classifier; activations are read out by an extraction routine."""

import torch
from torch import nn


class MiniAlexNet(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 5, stride=2, padding=2), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4),
        )
        self.classifier = nn.Sequential(
            nn.Dropout(0.5), nn.Linear(32 * 16, 128), nn.ReLU(),   # fc6
            nn.Dropout(0.5), nn.Linear(128, 128), nn.ReLU(),       # fc7
            nn.Linear(128, n_classes),
        )

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


def extract_fc7(model, images):
    """Activation extraction as run for the encoding models (model mode left as it is)."""
    with torch.no_grad():
        h = model.features(images).flatten(1)
        return model.classifier[:6](h)


def make_target():
    torch.manual_seed(0)
    model = MiniAlexNet()
    images = torch.randn(24, 3, 32, 32)
    labels = torch.randint(0, 10, (24,))
    return {
        "model": model,
        "batch": (images, labels),
        "loss_fn": nn.CrossEntropyLoss(),
        "eval_fn": extract_fc7,
    }

"""Small CNN that reads one character class from a noisy 12x12 glyph image; predict() is the routine used at test time."""

import torch
import torch.nn as nn
import torch.nn.functional as F

C = 8


class CaptchaCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.fc = nn.Sequential(nn.Flatten(), nn.Dropout(0.5), nn.Linear(32 * 9, 128), nn.ReLU(), nn.Dropout(0.5))
        self.out = nn.Linear(128, C)

    def forward(self, x):
        return self.out(self.fc(self.conv(x)))


def predict(model, batch):
    images = batch[0] if isinstance(batch, (tuple, list)) else batch
    with torch.no_grad():
        return model(images)


def _glyphs(n, seed):
    g = torch.Generator().manual_seed(seed)
    protos = (torch.rand(C, 1, 12, 12, generator=torch.Generator().manual_seed(0)) > 0.6).float()
    y = torch.randint(0, C, (n,), generator=g)
    return protos[y] + 0.9 * torch.randn(n, 1, 12, 12, generator=g), y


def make_target():
    torch.manual_seed(0)
    x, y = _glyphs(32, 1)
    return {
        "model": CaptchaCNN(),
        "batch": (x, y),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "eval_fn": predict,
        "optimizer": lambda params: torch.optim.Adam(params, lr=2e-3),
        "train_data": _glyphs(1024, 2),
        "val_data": _glyphs(512, 3),
    }

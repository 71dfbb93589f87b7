"""A tiny encoder-decoder segmenter with BatchNorm, and the user's predict routine (model left in train mode)."""

import torch
from torch import nn


class TinyUnet(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.enc1 = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.enc2 = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU())
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.dec = nn.Sequential(nn.Conv2d(48, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.Conv2d(16, n_classes, 1))

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(e1)
        return self.dec(torch.cat([e1, self.up(e2)], dim=1))


def make_images(n, seed):
    g = torch.Generator().manual_seed(seed)
    masks = torch.zeros(n, 16, 16, dtype=torch.long)
    images = 0.3 * torch.randn(n, 3, 16, 16, generator=g)
    for i in range(n):
        r, c = torch.randint(0, 8, (2,), generator=g).tolist()
        k = int(torch.randint(1, 3, (1,), generator=g))
        masks[i, r:r + 8, c:c + 8] = k
        images[i, k, r:r + 8, c:c + 8] += 1.0 + 0.5 * torch.rand(1, generator=g).item()
    return images, masks


def train_step(model, batch, optimizer, loss_fn):
    model.train()
    x, y = batch
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss


def predict(model, images):
    # inference as written by the user: no model.eval()
    with torch.no_grad():
        return model(images).argmax(1)


def make_target():
    torch.manual_seed(0)
    x, y = make_images(96, 0)
    xv, yv = make_images(32, 1)
    model = TinyUnet()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(3):
        for i in range(0, 96, 16):
            train_step(model, (x[i:i + 16], y[i:i + 16]), opt, nn.CrossEntropyLoss())
    return {
        "model": model,
        "batch": (xv[:8], yv[:8]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "train_step": train_step,
        "eval_fn": lambda model, images: predict(model, images),
        "metric_fn": lambda out, t: (out.argmax(1) == t).float().mean().item(),
        "train_data": (x, y),
        "val_data": (xv, yv),
    }

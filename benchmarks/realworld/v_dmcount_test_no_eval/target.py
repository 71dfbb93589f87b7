"""Small crowd-counting net with a batch-norm backbone, and the test routine that runs it image by image."""
import torch
from torch import nn


class CountNet(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(1, ch, 3, padding=1), nn.BatchNorm2d(ch), nn.ReLU(),
            nn.Conv2d(ch, ch, 3, padding=1), nn.BatchNorm2d(ch), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(ch, 2 * ch, 3, padding=1), nn.BatchNorm2d(2 * ch), nn.ReLU(),
        )
        self.density = nn.Sequential(nn.Conv2d(2 * ch, 1, 1), nn.ReLU())

    def forward(self, x):
        return self.density(self.backbone(x))  # (B, 1, H/2, W/2) density map


def make_scenes(n, seed, size=16):
    """Images with a random number of bright blobs; the label is the count."""
    g = torch.Generator().manual_seed(seed)
    counts = torch.randint(0, 40, (n,), generator=g)
    yy, xx = torch.meshgrid(torch.arange(size).float(), torch.arange(size).float(), indexing="ij")
    imgs = 0.05 * torch.randn(n, 1, size, size, generator=g)
    for i in range(n):
        c = int(counts[i])
        if c:
            cy = torch.rand(c, generator=g) * (size - 1)
            cx = torch.rand(c, generator=g) * (size - 1)
            blobs = torch.exp(-((yy[None] - cy[:, None, None]) ** 2 + (xx[None] - cx[:, None, None]) ** 2) / 8.0)
            imgs[i, 0] += blobs.sum(0)
    return imgs, counts.float()


def count_loss(density, counts):
    return nn.functional.l1_loss(density.sum(dim=(1, 2, 3)), counts)


def test_routine(model, images):
    """test.py: one image at a time, as the images have different sizes in the real data set."""
    preds = []
    with torch.no_grad():
        for i in range(images.shape[0]):
            preds.append(model(images[i:i + 1]))
    return torch.cat(preds)


def count_mae(density, counts):
    return (density.sum(dim=(1, 2, 3)) - counts).abs().mean().item()


def train(model, images, counts, epochs=8, seed=0):
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    g = torch.Generator().manual_seed(seed)
    model.train()
    for _ in range(epochs):
        perm = torch.randperm(len(images), generator=g)
        for i in range(0, len(images), 16):
            idx = perm[i:i + 16]
            loss = count_loss(model(images[idx]), counts[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return model


def make_target():
    torch.manual_seed(0)
    x_tr, y_tr = make_scenes(256, seed=0)
    x_val, y_val = make_scenes(64, seed=1)
    model = train(CountNet(), x_tr, y_tr)  # checkpoint as saved by the trainer (left in train mode)
    return {
        "model": model,
        "batch": (x_val[:16], y_val[:16]),
        "loss_fn": count_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "eval_fn": test_routine,
        "metric_fn": count_mae,
        "train_data": (x_tr, y_tr),
        "val_data": (x_val, y_val),
    }

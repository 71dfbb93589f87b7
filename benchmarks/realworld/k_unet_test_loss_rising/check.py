"""A small fully-convolutional segmenter trained for many epochs on a handful of images whose masks carry
some annotation noise: the training loss keeps falling while the held-out loss turns upward after an
early minimum."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _images(n, g, label_noise):
    yy, xx = torch.meshgrid(torch.arange(16.0), torch.arange(16.0), indexing="ij")
    cx, cy = torch.rand(n, 1, 1, generator=g) * 10 + 3, torch.rand(n, 1, 1, generator=g) * 10 + 3
    r = torch.rand(n, 1, 1, generator=g) * 3 + 2
    mask = (((xx - cx) ** 2 + (yy - cy) ** 2) < r**2).float()
    img = mask + 0.8 * torch.randn(n, 16, 16, generator=g)
    flip = torch.rand(n, 16, 16, generator=g) < label_noise
    mask = torch.where(flip, 1 - mask, mask)
    return img.unsqueeze(1), mask.unsqueeze(1)


def _net():
    return nn.Sequential(
        nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(),
        nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(),
        nn.Conv2d(32, 32, 3, padding=1), nn.ReLU(),
        nn.Conv2d(32, 1, 1),
    )


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    x, y = _images(12, g, label_noise=0.15)
    xt, yt = _images(64, g, label_noise=0.15)
    model = _net()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    train_loss, test_loss = [], []
    for epoch in range(100):
        loss = F.binary_cross_entropy_with_logits(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        with torch.no_grad():
            train_loss.append(F.binary_cross_entropy_with_logits(model(x), y).item())
            test_loss.append(F.binary_cross_entropy_with_logits(model(xt), yt).item())
    best = min(range(len(test_loss)), key=test_loss.__getitem__)
    assert best < 0.5 * len(test_loss), best
    assert test_loss[-1] > test_loss[best] + 0.05, (test_loss[best], test_loss[-1])
    assert train_loss[-1] < train_loss[best] - 0.05, (train_loss[best], train_loss[-1])
    return (
        f"test loss lowest at epoch {best + 1} ({test_loss[best]:.3f}) and {test_loss[-1]:.3f} at epoch 100; "
        f"train loss {train_loss[best]:.3f} -> {train_loss[-1]:.3f} over the same span"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

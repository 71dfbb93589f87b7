"""Small image-restoration CNN trained with a DISTS-style structure/texture loss.

The loss runs a frozen feature extractor (conv -> ReLU -> L2 pooling -> conv -> ReLU) on the
prediction and the reference and compares per-channel means, variances and covariances.
L2 pooling is the square root of a Hann-weighted sum of squared activations.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Restorer(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, ch, 3, padding=1), nn.ReLU(),
            nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU(),
            nn.Conv2d(ch, 3, 3, padding=1),
        )

    def forward(self, x):
        return x + self.body(x)


def relu(x):
    # activation as ported from the TensorFlow feature extractor: mask-multiply
    return x * (x > 0).to(x.dtype)


def _hann(channels, size=3):
    a = torch.hann_window(size + 2, periodic=False)[1:-1]
    g = a[:, None] * a[None, :]
    g = g / g.sum()
    return g[None, None].repeat(channels, 1, 1, 1)


class L2Pool(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.register_buffer("filt", _hann(channels))
        self.channels = channels

    def forward(self, x):
        out = F.conv2d(x ** 2, self.filt, stride=2, padding=1, groups=self.channels)
        return torch.sqrt(out)


class StructureTextureLoss(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        g = torch.Generator().manual_seed(123)
        self.c1 = nn.Conv2d(3, ch, 3, padding=1)
        self.c2 = nn.Conv2d(ch, ch, 3, padding=1)
        with torch.no_grad():
            for c in (self.c1, self.c2):
                c.weight.copy_(torch.randn(c.weight.shape, generator=g) * 0.3)
                c.bias.copy_(torch.randn(c.bias.shape, generator=g) * 0.1 - 0.1)
        self.pool = L2Pool(ch)
        for p in self.parameters():
            p.requires_grad_(False)

    def feats(self, x):
        f1 = relu(self.c1(x))
        f2 = relu(self.c2(self.pool(f1)))
        return [x, f1, f2]

    def forward(self, pred, ref):
        c1, c2 = 1e-6, 1e-6
        total = 0.0
        for a, b in zip(self.feats(pred), self.feats(ref)):
            ma, mb = a.mean([2, 3]), b.mean([2, 3])
            va = ((a - ma[..., None, None]) ** 2).mean([2, 3])
            vb = ((b - mb[..., None, None]) ** 2).mean([2, 3])
            cov = (a * b).mean([2, 3]) - ma * mb
            s1 = (2 * ma * mb + c1) / (ma ** 2 + mb ** 2 + c1)
            s2 = (2 * cov + c2) / (va + vb + c2)
            total = total + (2 - s1.mean() - s2.mean())
        return total


def make_images(n=4, size=24, seed=0):
    g = torch.Generator().manual_seed(seed)
    clean = torch.rand(n, 3, size, size, generator=g)
    clean[:, :, :, : size // 3] = 0.0          # dark letterbox strip, as in many photos
    noisy = (clean + 0.1 * torch.randn(clean.shape, generator=g)).clamp(0, 1)
    return noisy, clean


criterion = StructureTextureLoss()


def loss_fn(pred, ref):
    return criterion(pred, ref)


def make_target():
    torch.manual_seed(0)
    noisy, clean = make_images()
    return {
        "model": Restorer(),
        "batch": (noisy, clean),
        "loss_fn": loss_fn,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
    }

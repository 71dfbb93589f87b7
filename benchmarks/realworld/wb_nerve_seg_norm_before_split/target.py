"""Ultrasound nerve segmentation: tiny encoder-decoder, Keras-style 'validation_split' workflow.

All training images are loaded into one array, standardised with a mean and std, and then the last
20% of the array is held out as the validation split (what validation_split=0.2 does in Keras).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

VAL_FRACTION = 0.2


class TinyUNet(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.enc1 = nn.Sequential(nn.Conv2d(1, ch, 3, padding=1), nn.ReLU())
        self.enc2 = nn.Sequential(nn.Conv2d(ch, 2 * ch, 3, padding=1), nn.ReLU())
        self.dec = nn.Sequential(nn.Conv2d(3 * ch, ch, 3, padding=1), nn.ReLU(), nn.Conv2d(ch, 1, 1))

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(F.max_pool2d(e1, 2))
        up = F.interpolate(e2, scale_factor=2, mode="nearest")
        return self.dec(torch.cat([e1, up], 1))


def load_train_arrays(n=60, size=16, seed=0):
    """Scans come sorted by patient; the later patients were recorded on a brighter machine."""
    g = torch.Generator().manual_seed(seed)
    imgs, masks = [], []
    for i in range(n):
        gain = 1.0 if i < int(n * (1 - VAL_FRACTION)) else 1.8
        img = gain * (0.5 + 0.2 * torch.randn(1, size, size, generator=g))
        cy, cx = torch.randint(4, size - 4, (2,), generator=g).tolist()
        m = torch.zeros(1, size, size)
        m[:, cy - 2:cy + 2, cx - 2:cx + 2] = 1.0
        img = img + 0.6 * gain * m
        imgs.append(img)
        masks.append(m)
    return torch.stack(imgs), torch.stack(masks)


def preprocess():
    imgs, masks = load_train_arrays()
    mean = imgs.mean()
    std = imgs.std()
    imgs = (imgs - mean) / std
    n_val = int(len(imgs) * VAL_FRACTION)
    train = (imgs[:-n_val], masks[:-n_val])
    val = (imgs[-n_val:], masks[-n_val:])
    return train, val, (mean, std)


def dice_loss(logits, target, eps=1.0):
    p = torch.sigmoid(logits)
    inter = (p * target).sum()
    return 1 - (2 * inter + eps) / (p.sum() + target.sum() + eps)


def dice_metric(logits, target, eps=1.0):
    p = (torch.sigmoid(logits) > 0.5).float()
    return ((2 * (p * target).sum() + eps) / (p.sum() + target.sum() + eps)).item()


def make_target():
    torch.manual_seed(0)
    train, val, _ = preprocess()
    return {
        "model": TinyUNet(),
        "batch": (train[0][:8], train[1][:8]),
        "loss_fn": dice_loss,
        "metric_fn": dice_metric,
        "train_data": train,
        "val_data": val,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
    }

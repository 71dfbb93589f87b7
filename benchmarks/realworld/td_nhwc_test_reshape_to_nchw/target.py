"""Binary image classifier (channels-first CNN).

Training images come through the usual transform (HWC uint8 -> CHW float, like ToTensor). For the deployment test
the images are read straight from the exported .npy file, which stores them as (N, H, W, C), and are converted to the
(N, C, H, W) layout the exported model expects.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

H = W = 8


def decode_images(n, seed):
    """Stand-in for reading the raw image files: uint8-like floats in (N, H, W, C) order."""
    g = torch.Generator().manual_seed(seed)
    base = torch.rand(n, H, W, 3, generator=g) * 0.6
    shift = torch.rand(n, 1, 1, 3, generator=g) * 0.4
    imgs = (base + shift) * 255.0
    labels = (imgs[..., 0].mean((1, 2)) > imgs[..., 2].mean((1, 2))).long()  # "reddish" vs "bluish"
    return imgs, labels


def train_transform(imgs_hwc):
    return imgs_hwc.permute(0, 3, 1, 2).contiguous() / 255.0


def to_model_layout(imgs_hwc):
    """Convert the exported test tensor to channels-first for the deployed model."""
    n = imgs_hwc.shape[0]
    return imgs_hwc.reshape(n, 3, H, W) / 255.0


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 8, 3, padding=1)
        self.fc = nn.Linear(8, 2)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        return self.fc(x.mean((2, 3)))


def accuracy(logits, y):
    return (logits.argmax(-1) == y).float().mean().item()


def make_target():
    torch.manual_seed(0)
    tr_imgs, tr_y = decode_images(512, seed=1)
    te_imgs, te_y = decode_images(256, seed=2)
    xtr = train_transform(tr_imgs)
    xte = to_model_layout(te_imgs)
    return {
        "model": SmallCNN(),
        "batch": (xtr[:64], tr_y[:64]),
        "loss_fn": lambda out, y: F.cross_entropy(out, y),
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "metric_fn": accuracy,
        "train_data": (xtr, tr_y),
        "val_data": (xte, te_y),
    }

"""Small convolutional denoiser for imaging-mass-cytometry channels, trained with the configured initial lr."""

import torch
import torch.nn as nn
import torch.nn.functional as F

TRAIN_INITIAL_LR = 1.0  # value from the run configuration


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(),
            nn.Conv2d(16, 1, 3, padding=1),
        )

    def forward(self, x):
        return self.net(x)


def make_batch(g, n=16):
    clean = torch.rand(n, 1, 24, 24, generator=g) * (torch.rand(n, 1, 24, 24, generator=g) < 0.2)
    noisy = clean + 0.3 * torch.rand(n, 1, 24, 24, generator=g) * (torch.rand(n, 1, 24, 24, generator=g) < 0.1)
    return noisy * 10, clean * 10  # counts


def make_target():
    torch.manual_seed(0)
    x, y = make_batch(torch.Generator().manual_seed(0))
    return {
        "model": Denoiser(),
        "batch": (x, y),
        "loss_fn": F.mse_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=TRAIN_INITIAL_LR),
    }

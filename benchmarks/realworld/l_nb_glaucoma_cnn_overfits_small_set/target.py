"""Glaucoma vs. normal fundus classifier: a plain CNN trained from scratch on a small image set."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class FundusCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 16, 3, padding=1)
        self.c2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc1 = nn.Linear(32 * 4 * 4, 128)
        self.fc2 = nn.Linear(128, 2)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        return self.fc2(F.relu(self.fc1(x.flatten(1))))


def _fundus(n, seed):
    """Cup-to-disc ratio is the (weak) signal: glaucomatous images have a larger bright central cup; lots of
    patient-to-patient variation (illumination, vessels) on top."""
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 2, (n,), generator=g)
    yy, xx = torch.meshgrid(torch.linspace(-1, 1, 16), torch.linspace(-1, 1, 16), indexing="ij")
    r = (yy ** 2 + xx ** 2).sqrt()
    cup = 0.25 + 0.08 * y.float() + 0.05 * torch.randn(n, generator=g)
    img = (r[None] < cup[:, None, None]).float()[:, None].repeat(1, 3, 1, 1)
    img = img + 0.5 * torch.rand(n, 3, 1, 1, generator=g) + 0.6 * torch.randn(n, 3, 16, 16, generator=g)
    return img, y


def make_target():
    torch.manual_seed(0)
    return {
        "model": FundusCNN(),
        "batch": _fundus(32, 1),
        "loss_fn": nn.CrossEntropyLoss(),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": _fundus(64, 2),
        "val_data": _fundus(128, 3),
    }

"""Student-teacher anomaly detection with a normality memory whose keys/values are plain tensors (never trained)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

L, C = 16, 32


class NormalityMemory(nn.Module):
    def __init__(self, as_parameters=False):
        super().__init__()
        keys, values = torch.randn(L, C), torch.randn(L, C)
        if as_parameters:
            self.keys, self.values = nn.Parameter(keys), nn.Parameter(values)
        else:
            self.keys, self.values = keys, values  # plain tensors: not registered, not optimised

    def forward(self, x):
        b, c, h, w = x.shape
        q = x.permute(0, 2, 3, 1).reshape(-1, c)
        attn = F.softmax(q @ self.keys.t() / c ** 0.5, dim=-1)
        return (attn @ self.values).reshape(b, h, w, c).permute(0, 3, 1, 2)


def conv_block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU())


class Teacher(nn.Module):
    def __init__(self):
        super().__init__()
        with torch.random.fork_rng():
            torch.manual_seed(123)
            self.net = nn.Sequential(conv_block(3, 16), nn.MaxPool2d(2), conv_block(16, C))
        self.eval()
        for p in self.parameters():
            p.requires_grad_(False)

    def forward(self, x):
        return self.net(x)


class Student(nn.Module):
    def __init__(self, as_parameters=False):
        super().__init__()
        self.enc = nn.Sequential(conv_block(3, 16), nn.MaxPool2d(2), conv_block(16, C))
        self.memory = NormalityMemory(as_parameters)
        self.fuse = nn.Conv2d(2 * C, C, 1)

    def forward(self, x):
        f = self.enc(x)
        return self.fuse(torch.cat([f, self.memory(f)], dim=1))


TEACHER = Teacher()


def distill_loss(student_feats, images):
    with torch.no_grad():
        t = TEACHER(images)
    return (1 - F.cosine_similarity(student_feats, t, dim=1)).mean()


def make_images(n, g):
    base = torch.linspace(-1, 1, 16)
    stripes = torch.sin(6 * base)[None, None, :, None] * torch.ones(1, 3, 16, 16)
    return stripes + 0.3 * torch.randn(n, 3, 16, 16, generator=g)


def make_target():
    torch.manual_seed(0)
    x = make_images(8, torch.Generator().manual_seed(0))
    return {
        "model": Student(),
        "batch": (x, x),
        "loss_fn": distill_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
    }

"""Small video backbone (3D conv stem, attention-free token mixer with dropout and stochastic depth) used as a
feature extractor; features are read with an inference helper after training."""

import torch
import torch.nn as nn
import torch.nn.functional as F


class DropPath(nn.Module):
    def __init__(self, p):
        super().__init__()
        self.p = p

    def forward(self, x):
        if not self.training or self.p == 0.0:
            return x
        keep = (torch.rand(x.shape[0], *([1] * (x.dim() - 1))) > self.p).to(x.dtype)
        return x * keep / (1.0 - self.p)


class Block(nn.Module):
    def __init__(self, dim, drop=0.2, drop_path=0.2):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Dropout(drop), nn.Linear(2 * dim, dim))
        self.drop_path = DropPath(drop_path)

    def forward(self, x):
        return x + self.drop_path(self.mlp(self.norm(x)))


class TinyVideoBackbone(nn.Module):
    def __init__(self, dim=16, n_classes=4):
        super().__init__()
        self.stem = nn.Conv3d(3, dim, kernel_size=(2, 4, 4), stride=(2, 4, 4))
        self.blocks = nn.Sequential(Block(dim), Block(dim))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, n_classes)

    def features(self, clip):  # clip: (B, 3, T, H, W)
        tokens = self.stem(clip).flatten(2).transpose(1, 2)
        return self.norm(self.blocks(tokens)).mean(1)

    def forward(self, clip):
        return self.head(self.features(clip))


def extract_features(model, batch):
    clips = batch[0] if isinstance(batch, (tuple, list)) else batch
    with torch.no_grad():
        return model.features(clips)


def _clips(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 4, (n,), generator=g)
    x = torch.randn(n, 3, 4, 16, 16, generator=g) * 0.5
    x[torch.arange(n), y % 3] += (y // 3).float().view(-1, 1, 1, 1) + 0.5
    return x, y


def make_target():
    torch.manual_seed(0)
    return {
        "model": TinyVideoBackbone(),
        "batch": _clips(8, 1),
        "loss_fn": lambda out, t: F.cross_entropy(out, t),
        "eval_fn": extract_features,
        "optimizer": lambda params: torch.optim.AdamW(params, lr=1e-3),
        "train_data": _clips(128, 2),
        "val_data": _clips(64, 3),
    }

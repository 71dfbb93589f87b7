"""Font recognition (DeepFont-style) on small grayscale text patches. The notebook augments every patch (noise,
small shift, blur-ish smoothing) first and only then does a random train/test split of the augmented pool."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_FONTS, N_BASE, N_AUG, SIDE = 8, 96, 6, 12


def _base_patches(g):
    # each "patch" is a random glyph crop; the font label is only weakly encoded (hard task)
    x = torch.rand(N_BASE, 1, SIDE, SIDE, generator=g)
    y = torch.arange(N_BASE) % N_FONTS
    x[:, :, 0, :] += 0.05 * (y.view(-1, 1, 1).float() / N_FONTS)
    return x, y


def augment(x, g):
    noise = 0.05 * torch.randn(x.shape, generator=g)
    shift = int(torch.randint(-1, 2, (1,), generator=g))
    out = torch.roll(x + noise, shifts=shift, dims=-1)
    return F.avg_pool2d(F.pad(out, (1, 1, 1, 1), mode="replicate"), 3, stride=1) * 0.5 + out * 0.5


def build_splits(seed=0):
    g = torch.Generator().manual_seed(seed)
    xb, yb = _base_patches(g)
    xs, ys = [], []
    for _ in range(N_AUG):  # augment the whole pool first ...
        xs.append(augment(xb, g))
        ys.append(yb)
    X, Y = torch.cat(xs), torch.cat(ys)
    perm = torch.randperm(len(X), generator=g)  # ... then split it at random
    n_tr = int(0.8 * len(X))
    tr, te = perm[:n_tr], perm[n_tr:]
    return (X[tr], Y[tr]), (X[te], Y[te])


class DeepFontLite(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(32 * 3 * 3, 128), nn.ReLU(), nn.Linear(128, N_FONTS))

    def forward(self, x):
        return self.head(self.features(x))


def make_target():
    torch.manual_seed(0)
    train, test = build_splits()
    return {
        "model": DeepFontLite(),
        "batch": (train[0][:64], train[1][:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=2e-3),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "train_data": train,
        "val_data": test,
    }

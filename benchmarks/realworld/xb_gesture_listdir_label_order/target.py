"""Gesture classifier whose training matrix is loaded from one folder of captured frames.

Frames are saved as <gesture><counter>.png, NB_PER_CLASS per gesture, gestures written in
order. The loader reads the folder with ``list_dir`` (what os.listdir returns: the
filesystem's own order, which is only alphabetical on some filesystems) and then assigns
labels by position, block by block, assuming the listing is in filename order.
"""
import hashlib

import torch
import torch.nn as nn

GESTURES = ["fist", "ok", "palm", "peace", "stop"]
NB_PER_CLASS = 40
IMG = 12


def list_dir(names):
    # directory order as returned by the OS on ext4 (hashed), not sorted by name
    return sorted(names, key=lambda n: hashlib.md5(n.encode()).hexdigest())


def _render(name):
    """Deterministic synthetic frame for a saved file: a gesture-specific blob plus noise."""
    gesture = next(g for g in GESTURES if name.startswith(g))
    k = GESTURES.index(gesture)
    seed = int(hashlib.md5(name.encode()).hexdigest()[:8], 16)
    g = torch.Generator().manual_seed(seed)
    img = torch.randn(IMG, IMG, generator=g) * 0.3
    r, c = divmod(k, 3)
    img[r * 5:r * 5 + 5, c * 4:c * 4 + 4] += 2.0
    return img.flatten()


def folder_contents():
    return [f"{g}{i:03d}.png" for g in GESTURES for i in range(NB_PER_CLASS)]


def load_training_matrix():
    imlist = list_dir(folder_contents())
    immatrix = torch.stack([_render(name) for name in imlist])
    label = torch.empty(len(imlist), dtype=torch.long)
    for k in range(len(GESTURES)):
        label[k * NB_PER_CLASS:(k + 1) * NB_PER_CLASS] = k
    return imlist, immatrix, label


class GestureNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(IMG * IMG, 64), nn.ReLU(), nn.Dropout(0.2),
                                 nn.Linear(64, len(GESTURES)))

    def forward(self, x):
        return self.net(x)


def split():
    _, X, Y = load_training_matrix()
    g = torch.Generator().manual_seed(4)
    perm = torch.randperm(len(Y), generator=g)
    tr, va = perm[:160], perm[160:]
    return (X[tr], Y[tr]), (X[va], Y[va])


def make_target():
    torch.manual_seed(0)
    (xtr, ytr), (xva, yva) = split()
    return {
        "model": GestureNet(),
        "batch": (xtr[:64], ytr[:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "metric_fn": lambda out, y: (out.argmax(-1) == y).float().mean().item(),
        "train_data": (xtr, ytr),
        "val_data": (xva, yva),
    }

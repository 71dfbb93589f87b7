"""Patch-descriptor training on several patch datasets merged into one (HardNet-style).

In every source dataset the label is the id of the 3D point a patch was cropped around; patches that
share a label are treated as matching pairs by the loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

PATCH = 8


def make_patch_dataset(n_points, per_point, seed):
    g = torch.Generator().manual_seed(seed)
    proto = torch.randn(n_points, 1, PATCH, PATCH, generator=g)
    ids = torch.arange(n_points).repeat_interleave(per_point)
    patches = proto[ids] + 0.3 * torch.randn(len(ids), 1, PATCH, PATCH, generator=g)
    return patches, ids


class TotalDatasetsLoader:
    """Concatenates several patch datasets, shifting the point ids so they stay unique."""

    def __init__(self, datasets):
        data, labels = datasets[0][0], datasets[0][1]
        for i in range(1, len(datasets)):
            data = torch.cat([data, datasets[i][0]])
            labels = torch.cat([labels, datasets[i][1]]) + torch.max(labels) + 1
        self.data, self.labels = data, labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.data[i], self.labels[i]


class Descriptor(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
                                 nn.Flatten(), nn.Linear(32 * (PATCH // 2) ** 2, dim))

    def forward(self, x):
        return F.normalize(self.net(x), dim=1)


def matching_loss(desc, labels, margin=1.0):
    """Hardest-in-batch triplet margin loss; positives are patches with the same point id."""
    d = torch.cdist(desc, desc)
    same = labels.unsqueeze(0) == labels.unsqueeze(1)
    eye = torch.eye(len(labels), dtype=torch.bool)
    pos = d.masked_fill(~same | eye, -1.0).max(1).values
    neg = d.masked_fill(same, 1e4).min(1).values
    valid = (same & ~eye).any(1)
    return F.relu(margin + pos - neg)[valid].mean()


def build_training_set():
    sources = [make_patch_dataset(12, 4, seed=1),      # liberty
               make_patch_dataset(12, 4, seed=2),      # notredame
               make_patch_dataset(12, 4, seed=3)]      # yosemite
    return TotalDatasetsLoader(sources)


def make_target():
    torch.manual_seed(0)
    ds = build_training_set()
    g = torch.Generator().manual_seed(5)
    idx = torch.randperm(len(ds), generator=g)[:64]
    batch = (ds.data[idx], ds.labels[idx])
    return {
        "model": Descriptor(),
        "batch": batch,
        "loss_fn": matching_loss,
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9),
        "train_data": (ds.data, ds.labels),
    }

"""Point-cloud classification on a ModelNet10-style dataset with an on-disk processed cache (PyG
InMemoryDataset style: raw meshes are processed once, pre_transform is applied during processing, and the
result is saved under root/processed)."""
import os
import tempfile

import torch
import torch.nn as nn

N_CLASSES, N_POINTS = 4, 128
ROOT = os.path.join(tempfile.gettempdir(), "yc_modelnet10_small")


def normalize_scale(pos):
    pos = pos - pos.mean(0, keepdim=True)
    return pos / pos.abs().max()


def _raw_meshes(n=64, seed=0):
    """Mesh vertices in the original CAD units (hundreds to thousands)."""
    g = torch.Generator().manual_seed(seed)
    labels = torch.arange(n) % N_CLASSES
    clouds = []
    for y in labels.tolist():
        pts = torch.randn(N_POINTS, 3, generator=g)
        aspect = torch.tensor([[1.0, 1.0, 1.0], [3.0, 1.0, 1.0], [1.0, 1.0, 0.2], [1.0, 3.0, 3.0]])[y]
        scale = 20.0 + 100.0 * torch.rand(1, generator=g)
        offset = 50.0 * torch.randn(1, 3, generator=g)
        clouds.append(pts * aspect * scale + offset)
    return torch.stack(clouds), labels


class ModelNetSmall:
    def __init__(self, root, train=True, pre_transform=None):
        self.root, self.pre_transform = root, pre_transform
        path = os.path.join(root, "processed", "training.pt" if train else "test.pt")
        if not os.path.exists(path):
            self.process(path, seed=0 if train else 1)
        self.pos, self.y = torch.load(path)

    def process(self, path, seed):
        pos, y = _raw_meshes(seed=seed)
        if self.pre_transform is not None:
            pos = torch.stack([self.pre_transform(p) for p in pos])
        os.makedirs(os.path.dirname(path), exist_ok=True)
        torch.save((pos, y), path)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.pos[i], self.y[i]


class PointNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.local = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 64), nn.ReLU())
        self.head = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, N_CLASSES))

    def forward(self, pos):
        return self.head(self.local(pos).max(dim=1).values)


def make_target():
    torch.manual_seed(0)
    ModelNetSmall(ROOT, train=True)          # first run of the notebook: plain dataset
    ModelNetSmall(ROOT, train=False)
    train_dataset = ModelNetSmall(ROOT, train=True, pre_transform=normalize_scale)
    test_dataset = ModelNetSmall(ROOT, train=False, pre_transform=normalize_scale)
    return {
        "model": PointNet(),
        "batch": (train_dataset.pos[:32], train_dataset.y[:32]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": (train_dataset.pos, train_dataset.y),
        "val_data": (test_dataset.pos, test_dataset.y),
    }

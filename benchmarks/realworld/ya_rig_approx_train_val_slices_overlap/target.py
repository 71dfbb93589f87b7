"""Rig approximation: an MLP learns the face-rig function (rig control values -> mesh vertex offsets)."""
import torch
import torch.nn as nn
from torch.utils.data import Dataset


class ToyDataset(Dataset):
    def __init__(self, controls, vertices):
        self.controls = controls
        self.vertices = vertices

    def __len__(self):
        return len(self.controls)

    def __getitem__(self, i):
        return self.controls[i], self.vertices[i]


class RigApproximator(nn.Module):
    def __init__(self, n_controls=16, n_vertices=20, hidden=256):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_controls, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 3 * n_vertices),
        )

    def forward(self, controls):
        return self.net(controls)


def sample_rig(n=600, n_controls=16, n_vertices=20, seed=0):
    g = torch.Generator().manual_seed(seed)
    controls = torch.rand(n, n_controls, generator=g)
    basis = torch.randn(n_controls, 3 * n_vertices, generator=g) / n_controls ** 0.5
    corrective = torch.randn(n_controls, 3 * n_vertices, generator=g) / n_controls ** 0.5
    vertices = controls @ basis + torch.sin(9 * controls) @ corrective
    vertices = vertices + 0.1 * torch.randn(n, 3 * n_vertices, generator=g)   # sculpted per-pose detail
    return controls, vertices


def make_target():
    torch.manual_seed(0)
    data = dict(zip(["arr_0", "arr_1"], sample_rig()))
    dataset = ToyDataset(data["arr_0"][:-100], data["arr_1"][:-100])
    validate_dataset = ToyDataset(data["arr_0"][100:], data["arr_1"][100:])
    return {
        "model": RigApproximator(),
        "batch": (dataset.controls[:64], dataset.vertices[:64]),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=2e-3),
        "train_data": dataset,
        "val_data": validate_dataset,
    }

"""Membership-inference audit set built the way the MIA handler did it.

The attack pulls per-sample labels with ``get_labels(indices)``. That helper builds a
DataLoader from the *stored training loader config* (which has ``shuffle=True``) and
concatenates the labels it yields, so the returned labels are in loader order, not in
the order of ``indices``. The audit inputs, on the other hand, are indexed directly.
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

N_POP, N_FEAT, N_CLS = 256, 12, 4


class UserDataset(Dataset):
    def __init__(self, data, targets):
        self.data, self.targets = data, targets

    def __len__(self):
        return len(self.targets)

    def __getitem__(self, i):
        return self.data[i], self.targets[i]


class Population:
    def __init__(self, seed=0):
        g = torch.Generator().manual_seed(seed)
        centres = torch.randn(N_CLS, N_FEAT, generator=g) * 3.0
        self.targets = torch.randint(0, N_CLS, (N_POP,), generator=g)
        self.data = centres[self.targets] + torch.randn(N_POP, N_FEAT, generator=g)


# stored with the target model's metadata: the loader it was trained with
DATALOADER_PARAMS = {"batch_size": 32, "shuffle": True}


class MIAHandler:
    def __init__(self, population):
        self.population = population

    def get_dataset(self, idx):
        return UserDataset(self.population.data[idx], self.population.targets[idx])

    def get_dataloader(self, idx, batch_size=None):
        params = dict(DATALOADER_PARAMS)
        if batch_size is not None:
            params["batch_size"] = batch_size
        return DataLoader(self.get_dataset(idx), **params)

    def get_labels(self, idx):
        labels = []
        for _, y in self.get_dataloader(idx):
            labels.append(y.numpy())
        return np.concatenate(labels)


class TargetNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(N_FEAT, 32), nn.ReLU(), nn.Linear(32, N_CLS))

    def forward(self, x):
        return self.net(x)


def _train_target(model, pop, train_idx):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x, y = pop.data[train_idx], pop.targets[train_idx]
    for _ in range(80):
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    return model


def build_audit(seed=0):
    torch.manual_seed(seed)
    pop = Population(seed)
    train_idx = np.arange(0, 128)
    model = _train_target(TargetNet(), pop, train_idx)
    handler = MIAHandler(pop)
    audit_idx = np.arange(0, N_POP)            # members first, then non-members
    x_audit = pop.data[audit_idx]
    y_audit = torch.as_tensor(handler.get_labels(audit_idx)).long()
    return model, pop, audit_idx, x_audit, y_audit


def make_target():
    model, pop, audit_idx, x_audit, y_audit = build_audit(0)
    return {
        "model": model,
        "batch": (x_audit[:64], y_audit[:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "metric_fn": lambda out, y: (out.argmax(-1) == y).float().mean().item(),
        "val_data": (x_audit, y_audit),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
    }

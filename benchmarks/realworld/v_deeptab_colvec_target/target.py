"""Tabular MLP regressor whose labels are built from a column-vector y, as the data module did."""
import torch
from torch import nn


class MLPRegressor(nn.Module):
    def __init__(self, n_features=8, hidden=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_features, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x)  # (B, 1)


def make_data(n=512, n_features=8, seed=0):
    w = torch.randn(n_features, generator=torch.Generator().manual_seed(123))
    g = torch.Generator().manual_seed(seed)
    X = torch.randn(n, n_features, generator=g)
    y = X @ w + 0.5 * torch.sin(2 * X[:, 0]) + 0.05 * torch.randn(n, generator=g)
    y_col = y.reshape(-1, 1)          # the user passes a column vector, as documented
    labels = y_col.unsqueeze(dim=1)   # data module: unsqueeze without flattening -> (n, 1, 1)
    return X, labels


def make_target():
    torch.manual_seed(0)
    X, labels = make_data()
    Xv, labels_v = make_data(n=256, seed=1)
    model = MLPRegressor()
    return {
        "model": model,
        "batch": (X[:64], labels[:64]),
        "loss_fn": nn.MSELoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "train_data": (X, labels),
        "val_data": (Xv, labels_v),
    }

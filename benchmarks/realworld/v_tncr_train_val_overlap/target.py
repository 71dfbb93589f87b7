"""Table-image classifier (features of page crops -> 5 table classes); the split file puts some images in both
train and validation."""
import torch
from torch import nn

N_FEAT, N_CLS = 24, 5


def _make_pool(n, g):
    x = torch.randn(n, N_FEAT, generator=g)
    w = torch.randn(N_FEAT, N_CLS, generator=g)
    logits = x @ w + 2.5 * torch.randn(n, N_CLS, generator=g)  # hard, noisy labels
    return x, logits.argmax(1)


def _split():
    g = torch.Generator().manual_seed(3)
    x, y = _make_pool(700, g)
    train_idx = torch.arange(0, 500)
    # validation list built from a second scan of the folder: 60 fresh images + 40 that were also put in train
    val_idx = torch.cat([torch.arange(500, 560), torch.arange(100, 140)])
    return (x[train_idx], y[train_idx]), (x[val_idx], y[val_idx])


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(N_FEAT, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(),
                                  nn.Linear(128, N_CLS))

    def forward(self, x):
        return self.body(x)


def make_target():
    torch.manual_seed(0)
    (xtr, ytr), (xva, yva) = _split()
    return {
        "model": Net(),
        "batch": (xtr[:64], ytr[:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "train_data": (xtr, ytr),
        "val_data": (xva, yva),
    }

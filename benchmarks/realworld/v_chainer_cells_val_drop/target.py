"""Small 4-class cell-image classifier (strided convs, one dropout) on a small image set."""
import torch
from torch import nn


class CellCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 64, 3, stride=2), nn.ReLU(),
            nn.Conv2d(64, 32, 3, stride=2), nn.ReLU(),
            nn.Conv2d(32, 16, 3, stride=2), nn.ReLU(),
        )
        self.head = nn.Sequential(nn.Flatten(), nn.LazyLinear(16), nn.Dropout(0.5), nn.Linear(16, 4))

    def forward(self, x):
        return self.head(self.features(x))


def make_cells(n, seed, h=30, w=40):
    """Each class has its own faint texture template; images are mostly per-image noise."""
    templates = torch.randn(4, 3, h, w, generator=torch.Generator().manual_seed(99))
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 4, (n,), generator=g)
    x = 0.15 * templates[y] + torch.randn(n, 3, h, w, generator=g)
    flip = torch.rand(n, generator=g) < 0.2              # some mislabeled cells, as in hand-labelled data
    y = torch.where(flip, torch.randint(0, 4, (n,), generator=g), y)
    return x, y


def make_model():
    torch.manual_seed(0)
    model = CellCNN()
    model(torch.zeros(1, 3, 30, 40))  # materialise the lazy layer
    return model


def make_target():
    x_tr, y_tr = make_cells(160, seed=0)
    x_val, y_val = make_cells(300, seed=1)
    return {
        "model": make_model(),
        "batch": (x_tr[:32], y_tr[:32]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "metric_fn": lambda out, y: (out.argmax(-1) == y).float().mean().item(),
        "train_data": (x_tr, y_tr),
        "val_data": (x_val, y_val),
    }

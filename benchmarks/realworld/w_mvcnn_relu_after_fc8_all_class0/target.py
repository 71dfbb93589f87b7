"""Tiny multi-view CNN (shared conv per view, max view-pooling) whose class-score layer is followed by a ReLU."""
import torch
import torch.nn as nn

N_CLASSES, N_VIEWS = 10, 4


class MVCNN(nn.Module):
    def __init__(self, relu_after_fc8=True):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten())
        fc8 = nn.Linear(128, N_CLASSES)
        self.fc8 = nn.Sequential(fc8, nn.ReLU()) if relu_after_fc8 else fc8

    def forward(self, views):  # views: (batch, n_views, 1, H, W)
        b, v = views.shape[:2]
        f = self.features(views.flatten(0, 1)).view(b, v, -1).max(1).values
        return self.fc8(f)


def data(n=256, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    protos = torch.randn(N_CLASSES, 1, 8, 8, generator=torch.Generator().manual_seed(123))
    x = protos[y].unsqueeze(1).repeat(1, N_VIEWS, 1, 1, 1) + 0.8 * torch.randn(n, N_VIEWS, 1, 8, 8, generator=g)
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = data()
    xv, yv = data(128, seed=1)
    return {
        "model": MVCNN(),
        "batch": (x[:32], y[:32]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=1.0, momentum=0.9),
        "train_data": (x, y),
        "val_data": (xv, yv),
        "metric_fn": lambda out, t: (out.argmax(-1) == t).float().mean().item(),
    }

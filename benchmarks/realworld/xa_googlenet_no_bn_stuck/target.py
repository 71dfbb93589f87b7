"""A deep plain conv classifier (no normalisation) next to which a shallow net trains fine."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES = 10
DEPTH = 18


class DeepPlainNet(nn.Module):
    def __init__(self, depth=DEPTH, width=16, n_classes=N_CLASSES):
        super().__init__()
        layers = [nn.Conv2d(3, width, 3, padding=1), nn.ReLU()]
        for i in range(depth - 1):
            layers += [nn.Conv2d(width, width, 3, padding=1), nn.ReLU()]
            if i in (5, 11):
                layers.append(nn.MaxPool2d(2))
        self.features = nn.Sequential(*layers)
        self.fc = nn.Linear(width, n_classes)

    def forward(self, x):
        h = self.features(x)
        return self.fc(h.mean(dim=(2, 3)))


def make_data(n=256, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    proto = torch.randn(N_CLASSES, 3, 16, 16, generator=torch.Generator().manual_seed(123))
    x = proto[y] + 0.5 * torch.randn(n, 3, 16, 16, generator=g)
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = make_data()
    return {
        "model": DeepPlainNet(),
        "batch": (x[:32], y[:32]),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.02, momentum=0.9),
        "train_data": [(x[i:i + 32], y[i:i + 32]) for i in range(0, 256, 32)],
        "val_data": make_data(64, seed=1),
    }

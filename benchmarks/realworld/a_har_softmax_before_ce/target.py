"""1-D CNN for human activity recognition windows: (batch, 9 channels, 128 steps) -> 6 activities."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class HarCNN(nn.Module):
    def __init__(self, n_channels=9, n_classes=6):
        super().__init__()
        self.conv1 = nn.Conv1d(n_channels, 16, kernel_size=9, padding=4)
        self.pool = nn.MaxPool1d(4)
        self.conv2 = nn.Conv1d(16, 32, kernel_size=5, padding=2)
        self.fc = nn.Linear(32 * 8, n_classes)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.flatten(1)
        out = F.softmax(self.fc(x), dim=1)
        return out


def _windows(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 6, (n,), generator=g)
    t = torch.linspace(0, 6.28, 128)
    x = 0.3 * torch.randn(n, 9, 128, generator=g)
    x = x + torch.sin(t * (1 + y.float()).view(-1, 1, 1))    # activity-specific frequency
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = _windows(32, 1)
    criterion = nn.CrossEntropyLoss()
    return {
        "model": HarCNN(),
        "batch": ((x,), y),
        "loss_fn": lambda out, labels: criterion(out, labels),
        "metric_fn": lambda out, labels: (out.argmax(1) == labels).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": _windows(128, 2),
        "val_data": _windows(64, 3),
    }

"""Regression model scored with an epoch-level correlation metric whose accumulators are never reset."""
import torch
from torch import nn


class CorrelationMetric:
    def __init__(self):
        self.scores, self.targets = [], []

    def __call__(self, out, y):
        self.scores.append(out.detach().flatten())
        self.targets.append(y.detach().flatten())
        return self.get_metric()

    def get_metric(self):
        s, t = torch.cat(self.scores), torch.cat(self.targets)
        return float(torch.corrcoef(torch.stack([s, t]))[0, 1])

    def reset(self):
        self.scores, self.targets = [], []


METRIC = CorrelationMetric()


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    X = torch.randn(256, 8, generator=g)
    y = X @ torch.randn(8, generator=g) + 0.3 * torch.randn(256, generator=g)
    model = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 1))
    return {
        "model": model,
        "batch": (X[:32], y[:32]),
        "loss_fn": lambda out, t: nn.functional.mse_loss(out.squeeze(-1), t),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
        "metric_fn": METRIC,
        "train_data": (X[:192], y[:192]),
        "val_data": (X[192:], y[192:]),
    }

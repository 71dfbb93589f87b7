"""Reconstruction-based anomaly detection whose anomaly score is min-max normalised across the test batch."""
import torch
from torch import nn


class AE(nn.Module):
    def __init__(self, d=48, h=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, h))
        self.dec = nn.Sequential(nn.Linear(h, 32), nn.ReLU(), nn.Linear(32, d))

    def forward(self, x):
        return self.dec(self.enc(x))


def anomaly_scores(model, x):
    with torch.no_grad():
        err = ((model(x) - x) ** 2).mean(dim=1)
    # normalise over the batch so that scores lie in [0, 1]
    return (err - err.min()) / (err.max() - err.min())


def accuracy_at_half(scores, is_anomaly):
    return ((scores > 0.5).long() == is_anomaly).float().mean().item()


def make_data(n_train=256, n_test=64, d=48, seed=0):
    g = torch.Generator().manual_seed(seed)
    basis = torch.randn(8, d, generator=g)
    normal = lambda n: torch.randn(n, 8, generator=g) @ basis / 3
    train = normal(n_train)
    test = normal(n_test)
    is_anom = torch.zeros(n_test, dtype=torch.long)
    is_anom[::4] = 1
    k = int(is_anom.sum())
    severity = torch.linspace(0.3, 1.5, k)[torch.randperm(k, generator=g)].unsqueeze(1)
    test[is_anom == 1] += torch.randn(k, d, generator=g) * severity
    return train, test, is_anom


def _fit(model, train, steps=300):
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(steps):
        opt.zero_grad()
        loss = ((model(train) - train) ** 2).mean()
        loss.backward()
        opt.step()
    return model


def make_target():
    torch.manual_seed(0)
    train, test, is_anom = make_data()
    model = _fit(AE(), train)
    return {"model": model, "batch": (test, is_anom),
            "loss_fn": lambda out, y: ((out - test) ** 2).mean(),
            "eval_fn": anomaly_scores, "metric_fn": accuracy_at_half,
            "train_data": (train, torch.zeros(len(train), dtype=torch.long)),
            "val_data": (test, is_anom)}

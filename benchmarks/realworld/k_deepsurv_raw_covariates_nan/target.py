"""DeepSurv-style Cox proportional hazards MLP on a tabular survival dataset (flchain-like covariates).

Covariates go in as read from the CSV: age in years, serum markers, creatinine, and the sample date in days.
"""

import torch
import torch.nn as nn


class CoxMLP(nn.Module):
    def __init__(self, d_in=6, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def cox_ph_loss(risk, target):
    """Negative Cox partial log-likelihood; target[:, 0] = time, target[:, 1] = event indicator."""
    time, event = target[:, 0], target[:, 1]
    order = torch.argsort(time, descending=True)
    risk, event = risk[order], event[order]
    log_cumsum = torch.log(torch.cumsum(torch.exp(risk), dim=0))
    return -((risk - log_cumsum) * event).sum() / event.sum().clamp_min(1.0)


def _table(n, seed):
    g = torch.Generator().manual_seed(seed)
    age = 50 + 15 * torch.rand(n, generator=g) * 2
    kappa = 0.5 + 3 * torch.rand(n, generator=g)
    lam = 0.7 + 3 * torch.rand(n, generator=g)
    creat = 0.6 + 1.2 * torch.rand(n, generator=g)
    sex = (torch.rand(n, generator=g) < 0.5).float()
    sample_day = 1000 + 4000 * torch.rand(n, generator=g)
    x = torch.stack([age, kappa, lam, creat, sex, sample_day], 1)
    hazard = torch.exp(0.05 * (age - 65) + 0.4 * (kappa + lam - 4))
    time = -torch.log(torch.rand(n, generator=g)) / hazard * 3000
    event = (torch.rand(n, generator=g) < 0.7).float()
    return x, torch.stack([time, event], 1)


def make_target():
    torch.manual_seed(0)
    return {
        "model": CoxMLP(),
        "batch": _table(128, 1),
        "loss_fn": cox_ph_loss,
        "optimizer": lambda params: torch.optim.SGD(params, lr=1e-2, momentum=0.9, nesterov=True),
        "train_data": _table(512, 2),
        "val_data": _table(256, 3),
    }

"""Cox proportional-hazards MLP with dropout; test-time risk scores computed without switching to eval mode."""

import torch
import torch.nn as nn


class CoxNet(nn.Module):
    def __init__(self, d_in=12, hidden=64, p=0.4):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(d_in, hidden), nn.ReLU(), nn.Dropout(p),
            nn.Linear(hidden, hidden), nn.ReLU(), nn.Dropout(p),
            nn.Linear(hidden, 1),
        )

    def forward(self, x):
        return self.net(x).squeeze(-1)  # log hazard


def neg_partial_log_likelihood(log_hz, target):
    """Cox partial likelihood (Breslow, no ties handling); target = (event, time) stacked as (N, 2)."""
    event, time = target[:, 0], target[:, 1]
    order = torch.argsort(time, descending=True)
    lh, ev = log_hz[order], event[order]
    log_risk_set = torch.logcumsumexp(lh, dim=0)
    return -((lh - log_risk_set) * ev).sum() / ev.sum().clamp_min(1.0)


def concordance(log_hz, target):
    event, time = target[:, 0], target[:, 1]
    comparable = (time[:, None] < time[None, :]) & (event[:, None] > 0)
    higher = (log_hz[:, None] > log_hz[None, :]).float()
    return float((higher * comparable).sum() / comparable.sum().clamp_min(1))


def _make_data(n, g):
    x = torch.randn(n, 12, generator=g)
    risk = x[:, 0] - 0.8 * x[:, 1] + 0.5 * x[:, 2] * x[:, 3]
    t = torch.distributions.Exponential(torch.exp(risk)).sample()
    c = torch.rand(n, generator=g) * 3.0
    time = torch.minimum(t, c)
    event = (t <= c).float()
    return x, torch.stack([event, time], dim=1)


def evaluate(model, x):
    # test-time risk scores (the notebook's evaluation cell)
    with torch.no_grad():
        return model(x)


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    x_tr, y_tr = _make_data(512, g)
    x_te, y_te = _make_data(256, g)
    model = CoxNet()
    return {
        "model": model,
        "batch": (x_tr[:128], y_tr[:128]),
        "loss_fn": neg_partial_log_likelihood,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "eval_fn": evaluate,
        "metric_fn": concordance,
        "train_data": (x_tr, y_tr),
        "val_data": (x_te, y_te),
    }

"""Self-contained: price series that trends to new highs in the test period; a small model with a bounded (sigmoid)
output, as such notebooks use, trained on min-max scaled windows. Scaling fitted on train only vs on the whole
series (train + test)."""

import torch
import torch.nn as nn


def _series():
    g = torch.Generator().manual_seed(0)
    steps = 0.15 + 0.8 * torch.randn(600, generator=g)
    return 50 + torch.cumsum(steps, 0)


def _windows(s, L=10):
    x = torch.stack([s[i : i + L] for i in range(len(s) - L)])
    return x, s[L:]


def _run(leaky):
    torch.manual_seed(0)
    p = _series()
    split = 500
    ref = p if leaky else p[:split]
    lo, hi = ref.min(), ref.max()
    s = (p - lo) / (hi - lo)
    xtr, ytr = _windows(s[:split])
    xte, yte = _windows(s[split - 10 :])
    model = nn.Sequential(nn.Linear(10, 32), nn.Tanh(), nn.Linear(32, 1), nn.Sigmoid())
    opt = torch.optim.Adam(model.parameters(), lr=2e-2)
    for _ in range(800):
        opt.zero_grad()
        loss = ((model(xtr).squeeze(-1) - ytr) ** 2).mean()
        loss.backward()
        opt.step()
    with torch.no_grad():
        pred = model(xte).squeeze(-1) * (hi - lo) + lo
    true = yte * (hi - lo) + lo
    frac_above = (true > p[:split].max()).float().mean().item()
    return ((pred - true) ** 2).mean().sqrt().item(), frac_above


def _check() -> str:
    rmse_leak, above = _run(True)
    rmse_ok, _ = _run(False)
    assert above > 0.3 and rmse_leak < 0.6 * rmse_ok, (rmse_leak, rmse_ok, above)
    return (
        f"test RMSE {rmse_leak:.2f} with the scaler fitted on train+test vs {rmse_ok:.2f} fitted on train only "
        f"({above:.0%} of test prices above anything seen in training)"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

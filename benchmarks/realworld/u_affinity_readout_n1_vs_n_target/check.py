"""Self-contained: a pooled-feature regressor returning (N, 1) trained with MSE against (N,) pIC50 targets."""

import warnings

import torch
from torch import nn
import torch.nn.functional as F


def _run(squeeze):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(3)
    w_true = torch.randn(16, generator=g)
    x = torch.randn(256, 16, generator=g)
    y = 5.6 + 0.4 * (x @ w_true) + 0.1 * torch.randn(256, generator=g)
    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for epoch in range(40):
        for i in range(0, 256, 32):
            xb, yb = x[i:i + 32], y[i:i + 32]
            pred = model(xb)
            if squeeze:
                pred = pred.squeeze(-1)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                loss = F.mse_loss(pred, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        p = model(x).squeeze(-1)
    true_mse = F.mse_loss(p, y).item()
    corr = torch.corrcoef(torch.stack([p, y]))[0, 1].item()
    return true_mse, p.std().item(), corr, y.var().item()


def _check() -> str:
    bad_mse, bad_std, bad_corr, var_y = _run(False)
    ok_mse, ok_std, ok_corr, _ = _run(True)
    assert bad_mse > 0.8 * var_y and bad_std < 0.3 * var_y ** 0.5, (bad_mse, var_y, bad_std)
    assert ok_mse < 0.2 * var_y and ok_corr > 0.9, (ok_mse, ok_corr)
    return (f"(N,1) vs (N,): per-compound MSE {bad_mse:.2f} (label var {var_y:.2f}), pred std {bad_std:.3f}, "
            f"corr {bad_corr:.2f}; shapes matched: MSE {ok_mse:.3f}, corr {ok_corr:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

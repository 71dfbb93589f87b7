"""Self-contained: train a small classifier, then evaluate it with the edited loop (every batch weighted by the
nominal batch size) and with the per-batch length; the edited one depends on the batch size and exceeds 1."""

import torch
import torch.nn.functional as F
from torch import nn


def _evaluate(model, x, t, batchsize, nominal):
    n = len(x)
    s = 0.0
    with torch.no_grad():
        for i in range(0, n, batchsize):
            xb, tb = x[i : i + batchsize], t[i : i + batchsize]
            acc = (model(xb).argmax(1) == tb).float().mean().item()
            s += acc * (batchsize if nominal else len(tb))
    return s / n


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    w = torch.randn(20, 5, generator=g)
    x_tr, x_te = torch.randn(2000, 20, generator=g), torch.randn(1000, 20, generator=g)
    t_tr, t_te = (x_tr @ w).argmax(1), (x_te @ w).argmax(1)
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(300):
        opt.zero_grad()
        F.cross_entropy(model(x_tr), t_tr).backward()
        opt.step()
    model.eval()
    true = _evaluate(model, x_te, t_te, 300, nominal=False)
    bad300 = _evaluate(model, x_te, t_te, 300, nominal=True)
    bad100 = _evaluate(model, x_te, t_te, 100, nominal=True)
    assert abs(bad100 - true) < 1e-6, (bad100, true)
    assert bad300 > 1.0 and bad300 > true + 0.1, (bad300, true)
    return f"test accuracy with batchsize 300: reported {bad300:.3f} vs true {true:.3f}; with batchsize 100 both {bad100:.3f}"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

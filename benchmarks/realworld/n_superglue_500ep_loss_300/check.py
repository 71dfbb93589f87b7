"""Self-contained: a matcher-like model trained on a fraction of the data with a fixed epoch budget is still
improving when the budget ends; more epochs keep lowering the held-out loss - no defect."""

import torch
from torch import nn


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(32, 8, generator=torch.Generator().manual_seed(11))
    x = torch.randn(n, 32, generator=g)
    y = torch.tanh(x @ w) + 0.05 * torch.randn(n, 8, generator=g)
    return x, y


def _check() -> str:
    torch.manual_seed(0)
    xtr, ytr = _data(1024, 1)
    xva, yva = _data(256, 2)
    m = nn.Sequential(nn.Linear(32, 64), nn.Tanh(), nn.Linear(64, 8))
    opt = torch.optim.SGD(m.parameters(), lr=0.02)
    curve = []
    for epoch in range(1, 81):
        for i in range(0, 1024, 64):
            opt.zero_grad()
            nn.functional.mse_loss(m(xtr[i:i + 64]), ytr[i:i + 64]).backward()
            opt.step()
        if epoch in (10, 20, 40, 80):
            with torch.no_grad():
                curve.append(nn.functional.mse_loss(m(xva), yva).item())
    assert curve[0] > curve[1] > curve[2] > curve[3], curve
    assert curve[3] < 0.8 * curve[1], curve
    return "held-out loss at epochs 10/20/40/80: " + " / ".join(f"{c:.3f}" for c in curve) + " (still falling)"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

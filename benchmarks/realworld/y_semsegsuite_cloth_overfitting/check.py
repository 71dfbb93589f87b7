"""Self-contained: a wide net on a small noisy two-class set: train loss falls while validation loss turns up."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(n, g, w):
    x = torch.randn(n, 20, generator=g)
    logits = x @ w
    y = (logits + 1.2 * torch.randn(n, generator=g) > 0).long()
    return x, y


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    w = torch.randn(20, generator=g)
    x, y = _data(96, g, w)
    xv, yv = _data(512, g, w)
    model = nn.Sequential(nn.Linear(20, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 2))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    tr, va = [], []
    for _ in range(80):
        for i in range(0, 96, 16):
            opt.zero_grad()
            F.cross_entropy(model(x[i:i + 16]), y[i:i + 16]).backward()
            opt.step()
        with torch.no_grad():
            tr.append(F.cross_entropy(model(x), y).item())
            va.append(F.cross_entropy(model(xv), yv).item())
    best = min(range(len(va)), key=va.__getitem__)
    assert best < 30, best
    assert tr[-1] < 0.05, tr[-1]
    assert va[-1] > 2.0 * va[best], (va[best], va[-1])
    return (f"96 training examples, 80 epochs: train loss {tr[0]:.3f} -> {tr[-1]:.4f}; validation loss lowest "
            f"{va[best]:.3f} at epoch {best + 1}, then rises to {va[-1]:.3f} at epoch 80")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

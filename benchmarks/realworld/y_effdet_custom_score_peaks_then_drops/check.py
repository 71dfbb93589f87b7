"""Self-contained: a large head on a small noisy set; val accuracy peaks early, then declines as train loss falls."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(n, g, w, noise):
    x = torch.randn(n, 32, generator=g)
    y = (x @ w).argmax(-1)
    noisy = torch.rand(n, generator=g) < noise
    y[noisy] = torch.randint(0, 4, (int(noisy.sum()),), generator=g)
    return x, y


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    w = torch.randn(32, 4, generator=g)
    x, y = _data(200, g, w, 0.4)
    xv, yv = _data(1000, g, w, 0.0)
    model = nn.Sequential(nn.Linear(32, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 4))
    opt = torch.optim.Adam(model.parameters(), lr=3e-4)
    tr_loss, va_acc, va_loss = [], [], []
    for _ in range(60):
        for i in range(0, 200, 25):
            opt.zero_grad()
            loss = F.cross_entropy(model(x[i:i + 25]), y[i:i + 25])
            loss.backward()
            opt.step()
        with torch.no_grad():
            tr_loss.append(F.cross_entropy(model(x), y).item())
            out = model(xv)
            va_acc.append((out.argmax(-1) == yv).float().mean().item())
            va_loss.append(F.cross_entropy(out, yv).item())
    best = max(range(len(va_acc)), key=va_acc.__getitem__)
    assert 2 <= best <= 30, best
    assert va_acc[-1] < va_acc[best] - 0.025, (va_acc[best], va_acc[-1])
    assert tr_loss[-1] < 0.2 * tr_loss[best], (tr_loss[best], tr_loss[-1])
    assert va_loss[-1] > 1.3 * min(va_loss), (min(va_loss), va_loss[-1])
    return (f"val acc peaks at {va_acc[best]:.3f} (epoch {best + 1}) and ends at {va_acc[-1]:.3f}; train loss "
            f"{tr_loss[best]:.3f} -> {tr_loss[-1]:.4f}; val loss {min(va_loss):.3f} -> {va_loss[-1]:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

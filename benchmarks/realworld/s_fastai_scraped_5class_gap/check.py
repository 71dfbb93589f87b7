"""Self-contained: a wide MLP trained long on a small, noisy-label 5-class set memorises it; held-out accuracy lags."""

import torch
from torch import nn


def _data(n, g, centers, flip=0.15):
    y = torch.randint(0, 5, (n,), generator=g)
    x = centers[y] + 1.6 * torch.randn(n, centers.shape[1], generator=g)
    noisy = torch.rand(n, generator=g) < flip  # scraped, uncleaned labels
    y = torch.where(noisy, torch.randint(0, 5, (n,), generator=g), y)
    return x, y


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    centers = torch.randn(5, 20, generator=g)
    xtr, ytr = _data(300, g, centers)
    xva, yva = _data(1000, g, centers)
    model = nn.Sequential(nn.Linear(20, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 5))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    lf = nn.CrossEntropyLoss()
    hist = []
    for epoch in range(300):
        opt.zero_grad()
        loss = lf(model(xtr), ytr)
        loss.backward()
        opt.step()
        if epoch % 10 == 9:
            with torch.no_grad():
                out = model(xva)
                hist.append((loss.item(), lf(out, yva).item(),
                             (model(xtr).argmax(1) == ytr).float().mean().item(),
                             (out.argmax(1) == yva).float().mean().item()))
    best_val = min(h[1] for h in hist)
    tr_loss, va_loss, tr_acc, va_acc = hist[-1]
    assert tr_acc > 0.97, tr_acc
    assert tr_acc - va_acc > 0.15, (tr_acc, va_acc)
    assert va_loss > 1.5 * best_val and va_loss > tr_loss, (best_val, va_loss, tr_loss)
    return (f"train acc {tr_acc:.3f} vs held-out {va_acc:.3f}; val loss bottomed at {best_val:.3f} "
            f"then rose to {va_loss:.3f} while train loss fell to {tr_loss:.4f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

"""Self-contained: a large MLP on 92 classes x 15 noisy samples memorises the training set; more data per class generalises."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLS, D = 92, 64


def make_data(per_class, g, centers):
    y = torch.arange(N_CLS).repeat_interleave(per_class)
    x = centers[y] + 3.0 * torch.randn(len(y), D, generator=g)
    return x, y


def _run(per_class):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    centers = torch.randn(N_CLS, D, generator=torch.Generator().manual_seed(7))
    x, y = make_data(per_class, g, centers)
    xv, yv = make_data(10, g, centers)
    model = nn.Sequential(nn.Linear(D, 192), nn.ReLU(), nn.Linear(192, 192), nn.ReLU(), nn.Linear(192, N_CLS))
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    for _ in range(35):
        perm = torch.randperm(len(y), generator=g)
        for i in range(0, len(y), 128):
            idx = perm[i:i + 128]
            opt.zero_grad()
            F.cross_entropy(model(x[idx]), y[idx]).backward()
            opt.step()
    with torch.no_grad():
        tr = float((model(x).argmax(1) == y).float().mean())
        va = float((model(xv).argmax(1) == yv).float().mean())
        tr_loss = F.cross_entropy(model(x), y).item()
        va_loss = F.cross_entropy(model(xv), yv).item()
    return tr, va, tr_loss, va_loss


def _check() -> str:
    tr, va, tr_loss, va_loss = _run(15)
    tr_big, va_big, _, _ = _run(30)
    assert tr == 1.0 and tr_loss < 0.05, (tr, tr_loss)
    assert va < tr - 0.25 and va_loss > 20 * tr_loss, (va, va_loss)
    assert va_big > va + 0.03, (va, va_big)
    return (f"15 images/class: train acc {tr:.2f} (loss {tr_loss:.4f}), held-out acc {va:.2f} (loss {va_loss:.2f}); "
            f"30 images/class, same net and schedule: held-out acc {va_big:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

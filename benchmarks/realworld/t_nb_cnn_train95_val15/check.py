"""Self-contained: a high-capacity net on a small image-like dataset fits the training set and not the val set."""

import torch
from torch import nn


def _data(n, seed, g_proto):
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(10, 256, generator=g_proto)
    y = torch.randint(0, 10, (n,), generator=g)
    x = 0.12 * protos[y] + torch.randn(n, 256, generator=g)  # weak class signal, lots of nuisance variation
    return x, y


def _check() -> str:
    torch.manual_seed(0)
    gp = torch.Generator().manual_seed(42)
    xtr, ytr = _data(200, 1, gp)
    gp = torch.Generator().manual_seed(42)
    xva, yva = _data(400, 2, gp)
    model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    hist = []
    for epoch in range(20):
        perm = torch.randperm(200)
        for i in range(0, 200, 32):
            idx = perm[i:i + 32]
            loss = nn.functional.cross_entropy(model(xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            tr_out, va_out = model(xtr), model(xva)
            hist.append((nn.functional.cross_entropy(tr_out, ytr).item(), nn.functional.cross_entropy(va_out, yva).item(),
                         (tr_out.argmax(1) == ytr).float().mean().item(), (va_out.argmax(1) == yva).float().mean().item()))
    tr_loss, va_loss, tr_acc, va_acc = hist[-1]
    best_va_loss = min(h[1] for h in hist)
    assert tr_acc >= 0.95 and va_acc < 0.6, (tr_acc, va_acc)
    assert va_loss > best_va_loss * 1.2 and tr_loss < hist[0][0] * 0.2, hist
    return (f"after 20 epochs: train acc {tr_acc:.2f} / val acc {va_acc:.2f}; train loss {hist[0][0]:.2f} -> {tr_loss:.3f} "
            f"while val loss bottomed at {best_va_loss:.2f} and rose to {va_loss:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

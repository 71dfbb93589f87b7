"""Self-contained: test accuracy averaged with every batch weighted by the nominal batch size, on a test set that
is not a multiple of it. The same trained model gets a different test accuracy for each batch size, above 100% for
some."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _eval_buggy(model, x, y, bs):
    s = 0.0
    for i in range(0, len(x), bs):
        s += (model(x[i:i + bs]).argmax(1) == y[i:i + bs]).float().mean().item() * bs
    return s / len(x)


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    W = torch.randn(20, 10, generator=g)
    x_tr = torch.randn(2000, 20, generator=g)
    y_tr = (x_tr @ W).argmax(1)
    x_te = torch.randn(1000, 20, generator=g)
    y_te = (x_te @ W).argmax(1)
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 10))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(10):
        for i in range(0, 2000, 100):
            loss = F.cross_entropy(model(x_tr[i:i + 100]), y_tr[i:i + 100])
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        true_acc = (model(x_te).argmax(1) == y_te).float().mean().item()
        accs = {bs: _eval_buggy(model, x_te, y_te, bs) for bs in (100, 300, 450, 600)}
    assert abs(accs[100] - true_acc) < 1e-6, (accs[100], true_acc)
    assert max(accs.values()) > 1.0 and max(accs.values()) - min(accs.values()) > 0.1, accs
    shown = ", ".join(f"bs={b}: {a:.3f}" for b, a in accs.items())
    return f"same model, true test accuracy {true_acc:.3f}; reported: {shown}"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

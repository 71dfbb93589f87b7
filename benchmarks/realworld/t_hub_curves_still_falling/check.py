"""Self-contained: a short run leaves train and val loss both still falling; a longer run of the same code gets far lower."""

import torch
import torch.nn.functional as F
from torch import nn


def _run(epochs):
    g = torch.Generator().manual_seed(0)
    x = torch.randn(1200, 20, generator=g)
    w = torch.randn(20, 4, generator=g)
    y = (torch.tanh(x @ w) @ torch.randn(4, 3, generator=g)).argmax(1)
    xtr, ytr, xva, yva = x[:1000], y[:1000], x[1000:], y[1000:]
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3))
    opt = torch.optim.SGD(m.parameters(), lr=0.02)
    tr, va = [], []
    for _ in range(epochs):
        for i in range(0, 1000, 100):
            loss = F.cross_entropy(m(xtr[i:i + 100]), ytr[i:i + 100])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            tr.append(F.cross_entropy(m(xtr), ytr).item())
            va.append(F.cross_entropy(m(xva), yva).item())
            acc = (m(xva).argmax(1) == yva).float().mean().item()
    return tr, va, acc


def _check() -> str:
    tr, va, acc = _run(30)
    tr_l, va_l, acc_l = _run(300)
    assert tr[-1] < tr[-5] and va[-1] < va[-5], (tr[-5:], va[-5:])  # both still falling at the end
    assert va[-1] - tr[-1] < 0.1, (tr[-1], va[-1])  # no train/val gap: not overfitting
    assert va_l[-1] < 0.7 * va[-1] and acc_l > acc + 0.05, (va[-1], va_l[-1], acc, acc_l)
    return (f"30 epochs: train {tr[0]:.2f}->{tr[-1]:.2f}, val {va[0]:.2f}->{va[-1]:.2f} (still falling), val acc {acc:.2f}; "
            f"300 epochs: val {va_l[-1]:.2f}, val acc {acc_l:.2f}")

def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())


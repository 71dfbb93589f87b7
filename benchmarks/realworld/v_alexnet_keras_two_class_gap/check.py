"""Self-contained: a high-capacity classifier fitted to a small noisy two-class dataset.

Training accuracy climbs towards 1 while validation accuracy stays far lower; the same code with 60x more
training data closes most of the gap, so the gap comes from the data size, not from a defect.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

DIM = 200


def _data(n, g, w):
    x = torch.randn(n, DIM, generator=g)
    logits = x @ w
    y = (logits + 0.5 * torch.randn(n, generator=g) > 0).long()  # label noise: the task is only partly predictable
    return x, y


def _fit(n_train):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    w = torch.randn(DIM, generator=torch.Generator().manual_seed(5)) / DIM**0.5
    xtr, ytr = _data(n_train, g, w)
    xva, yva = _data(1000, g, w)
    model = nn.Sequential(nn.Linear(DIM, 256), nn.ReLU(), nn.Linear(256, 2))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(400):  # same number of updates for both dataset sizes
        idx = torch.randint(0, n_train, (64,), generator=g)
        opt.zero_grad()
        F.cross_entropy(model(xtr[idx]), ytr[idx]).backward()
        opt.step()
    with torch.no_grad():
        tr = (model(xtr).argmax(-1) == ytr).float().mean().item()
        va = (model(xva).argmax(-1) == yva).float().mean().item()
    return tr, va


def _check() -> str:
    tr_small, va_small = _fit(300)
    tr_big, va_big = _fit(20000)
    assert tr_small > 0.97 and va_small < 0.75, (tr_small, va_small, tr_big, va_big)
    assert (tr_small - va_small) > 2 * (tr_big - va_big) and va_big > va_small + 0.05, (tr_big, va_big)
    return (
        f"300 training examples: train acc {tr_small:.2f}, val acc {va_small:.2f}; "
        f"same code with 20000 examples: train {tr_big:.2f}, val {va_big:.2f}"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

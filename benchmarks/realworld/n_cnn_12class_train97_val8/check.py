"""Self-contained: an over-sized net on 100 noisy examples per class (12 classes) fits the training set while
validation stays near chance - no defect, just far too little data for the model."""

import torch
from torch import nn


def _data(n_per, seed):
    g = torch.Generator().manual_seed(seed)
    centers = 0.06 * torch.randn(12, 256, generator=torch.Generator().manual_seed(3))
    y = torch.arange(12).repeat_interleave(n_per)
    x = centers[y] + torch.randn(len(y), 256, generator=g)
    return x, y


def _check() -> str:
    torch.manual_seed(0)
    xtr, ytr = _data(100, 1)
    xva, yva = _data(30, 2)
    m = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 12))
    opt = torch.optim.Adam(m.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(5)
    for epoch in range(10):
        perm = torch.randperm(len(ytr), generator=g)
        for i in range(0, len(ytr), 64):
            idx = perm[i:i + 64]
            opt.zero_grad()
            nn.functional.cross_entropy(m(xtr[idx]), ytr[idx]).backward()
            opt.step()
    with torch.no_grad():
        tr = (m(xtr).argmax(-1) == ytr).float().mean().item()
        va = (m(xva).argmax(-1) == yva).float().mean().item()
    assert tr > 0.95 and va < 0.3, (tr, va)
    return f"train acc {tr:.2f}, val acc {va:.2f} (chance 0.08) with 100 examples per class"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

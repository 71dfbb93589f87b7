"""Self-contained: a weak-signal binary detection task (like stego vs cover) trained with plain SGD. Accuracy sits
near chance for the first epochs and only climbs with many more epochs: nothing is broken, it is early."""

import torch
import torch.nn.functional as F
from torch import nn


def _data(n, w, g):
    x = torch.randn(n, w.numel(), generator=g)
    y = ((x @ w) / w.numel() ** 0.5 + torch.randn(n, generator=g) > 0).long()
    return x, y


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    w = torch.randn(128, generator=g)
    x, y = _data(1000, w, g)
    xv, yv = _data(1000, w, g)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(128, 32), nn.ReLU(), nn.Linear(32, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.005)
    acc = {}
    for ep in range(1, 161):
        for i in range(0, len(x), 100):
            loss = F.cross_entropy(model(x[i:i + 100]), y[i:i + 100])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if ep in (3, 160):
            with torch.no_grad():
                acc[ep] = (model(xv).argmax(1) == yv).float().mean().item()
    assert acc[3] < 0.6, acc
    assert acc[160] > acc[3] + 0.08 and acc[160] > 0.64, acc
    return f"val accuracy {acc[3]:.3f} after 3 epochs (near chance), {acc[160]:.3f} after 160 epochs with nothing changed"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

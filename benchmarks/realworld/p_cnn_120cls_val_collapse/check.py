"""Self-contained: a wide MLP on few noisy examples per class memorises train while val stays low."""

import torch
from torch import nn


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    n_cls, per_cls, d = 120, 4, 64
    protos = torch.randn(n_cls, d, generator=g) * 0.25
    def draw(k):
        y = torch.arange(n_cls).repeat_interleave(k)
        return protos[y] + torch.randn(len(y), d, generator=g), y
    xt, yt = draw(per_cls)
    xv, yv = draw(2)
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(d, 512), nn.ReLU(), nn.Linear(512, n_cls))
    opt = torch.optim.Adam(m.parameters(), lr=3e-3)
    val_losses = []
    for step in range(150):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(m(xt), yt)
        loss.backward()
        opt.step()
        if step % 10 == 9:
            with torch.no_grad():
                val_losses.append(nn.functional.cross_entropy(m(xv), yv).item())
    with torch.no_grad():
        tr = (m(xt).argmax(-1) == yt).float().mean().item()
        va = (m(xv).argmax(-1) == yv).float().mean().item()
    assert tr > 0.9 and va < 0.5 and tr - va > 0.4, (tr, va)
    assert val_losses[-1] > min(val_losses), val_losses
    return f"train acc {tr:.2f}, val acc {va:.2f}; val loss min {min(val_losses):.2f} then {val_losses[-1]:.2f}"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

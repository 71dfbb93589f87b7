"""Self-contained: a toy denoiser whose noise-averaged val loss looks flat while longer training still helps."""

import torch
import torch.nn as nn


def _data(n, g):
    z = torch.randn(n, 2, generator=g)
    return torch.cat([torch.sin(3 * z), torch.cos(2 * z), z[:, :1] * z[:, 1:]], -1)


def _loss(model, x0, t, eps):
    a = torch.cos(t * 1.5)[:, None]
    s = torch.sin(t * 1.5)[:, None]
    xt = a * x0 + s * eps
    return ((model(torch.cat([xt, t[:, None]], -1)) - eps) ** 2).mean(-1)


def _run(steps):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    model = nn.Sequential(nn.Linear(6, 128), nn.SiLU(), nn.Linear(128, 128), nn.SiLU(), nn.Linear(128, 5))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    gv = torch.Generator().manual_seed(9)
    xv, tv, ev = _data(4096, gv), torch.rand(4096, generator=gv), torch.randn(4096, 5, generator=gv)
    low = tv < 0.15
    curve = []
    for s in range(steps):
        x0 = _data(256, g)
        t = torch.rand(256, generator=g)
        loss = _loss(model, x0, t, torch.randn(256, 5, generator=g)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if (s + 1) % 250 == 0:
            with torch.no_grad():
                per = _loss(model, xv, tv, ev)
            curve.append((per.mean().item(), per[low].mean().item()))
    return curve


def _check() -> str:
    short = _run(1000)
    long = _run(4000)
    (avg_a, _), (avg_b, low_b) = short[-2], short[-1]
    assert abs(avg_b - avg_a) < 0.03 * avg_a, (avg_a, avg_b)
    assert long[-1][1] < 0.93 * low_b and long[-1][0] < avg_b, (low_b, long[-1])
    return (f"1000 steps: noise-averaged val loss {avg_a:.4f} -> {avg_b:.4f} over the last 250 steps (flat), "
            f"low-noise val loss {low_b:.4f}; 4000 steps: averaged {long[-1][0]:.4f}, low-noise {long[-1][1]:.4f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

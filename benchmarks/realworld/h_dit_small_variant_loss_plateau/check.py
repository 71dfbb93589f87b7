import torch
import torch.nn as nn
import torch.nn.functional as F

D = 32


def _batch(g, n=128):
    # denoising-style regression: predict the noise added to a structured signal
    x0 = torch.tanh(torch.randn(n, 4, generator=g) @ _MIX)
    t = torch.rand(n, 1, generator=g)
    eps = torch.randn(n, D, generator=g)
    xt = (1 - t).sqrt() * x0 + t.sqrt() * eps
    return torch.cat([xt, t], 1), eps


_MIX = torch.randn(4, D, generator=torch.Generator().manual_seed(0))


def _train(width, steps=1200):
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(D + 1, width), nn.SiLU(), nn.Linear(width, width), nn.SiLU(), nn.Linear(width, D))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(1)
    curve = []
    for _ in range(steps):
        x, y = _batch(g)
        loss = F.mse_loss(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        curve.append(loss.item())
    def avg(a, b):
        return sum(curve[a:b]) / (b - a)
    return avg(0, 20), avg(400, 500), avg(steps - 100, steps)


def _check() -> str:
    s0, s_mid, s_end = _train(4)
    b0, b_mid, b_end = _train(128)
    # the small model drops fast, then sits on a plateau; the same recipe with a bigger model goes well below it
    assert s_mid < 0.93 * s0 and s_end > 0.9 * s_mid and b_end < 0.5 * s_end, (s0, s_mid, s_end, b0, b_mid, b_end)
    return (f"width-4 model: loss {s0:.3f} -> {s_mid:.3f} at step ~450 -> {s_end:.3f} at the end (plateau); "
            f"same recipe, width 128: {b_end:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

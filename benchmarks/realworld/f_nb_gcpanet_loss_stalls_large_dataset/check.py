"""A too-small network on a large, rich dataset: train and validation loss level off together; a wider one goes lower."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 16, generator=g)
    teacher = torch.Generator().manual_seed(99)
    w1, w2 = torch.randn(16, 64, generator=teacher), torch.randn(64, 1, generator=teacher)
    y = torch.tanh(x @ w1) @ w2 / 8
    return x, y


def _fit(hidden, epochs=40):
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(16, hidden), nn.ReLU(), nn.Linear(hidden, 1))
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    x, y = _data(4096, 1)
    vx, vy = _data(1024, 2)
    curve = []
    for _ in range(epochs):
        for i in range(0, len(x), 256):
            opt.zero_grad()
            F.mse_loss(net(x[i : i + 256]), y[i : i + 256]).backward()
            opt.step()
        with torch.no_grad():
            curve.append((F.mse_loss(net(x), y).item(), F.mse_loss(net(vx), vy).item()))
    return curve


def _check() -> str:
    small, wide = _fit(1), _fit(128)
    tr0, tr_mid, tr_end, va_end = small[0][0], small[19][0], small[-1][0], small[-1][1]
    assert tr_end > 0.9 * tr_mid, (tr_mid, tr_end)  # flat over the second half
    assert abs(va_end - tr_end) < 0.15 * tr_end, (tr_end, va_end)  # no train/val gap
    assert wide[-1][0] < 0.5 * tr_end and wide[-1][1] < 0.7 * va_end, (wide[-1], small[-1])
    return (f"1 hidden unit: train loss {tr0:.3f} -> {tr_mid:.3f} (epoch 20) -> {tr_end:.3f} (epoch 40), val {va_end:.3f}; "
            f"128 units: train {wide[-1][0]:.3f}, val {wide[-1][1]:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

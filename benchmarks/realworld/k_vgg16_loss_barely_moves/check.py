"""Self-contained: a deep plain CNN trained from scratch with SGD; a short run barely moves, a longer one learns."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _net():
    layers, c = [], 1
    for out in (16, 16, 32, 32):
        layers += [nn.Conv2d(c, out, 3, padding=1), nn.ReLU()]
        c = out
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(c, 10)]
    return nn.Sequential(*layers)


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(10, 1, 8, 8, generator=torch.Generator().manual_seed(3))
    y = torch.randint(0, 10, (n,), generator=g)
    return protos[y] + 0.8 * torch.randn(n, 1, 8, 8, generator=g), y


def _train(steps):
    torch.manual_seed(0)
    model = _net()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x, y = _data(2048, 1)
    losses = []
    for s in range(steps):
        i = (s * 64) % len(x)
        opt.zero_grad()
        loss = F.cross_entropy(model(x[i : i + 64]), y[i : i + 64])
        loss.backward()
        opt.step()
        losses.append(loss.item())
    xv, yv = _data(512, 2)
    with torch.no_grad():
        acc = (model(xv).argmax(1) == yv).float().mean().item()
    return losses, acc


def _check() -> str:
    short, acc_short = _train(30)
    long, acc_long = _train(250)
    start = short[0]
    short_end = sum(short[-5:]) / 5
    long_end = sum(long[-20:]) / 20
    assert short_end > 0.85 * start and acc_short < 0.35, (start, short_end, acc_short)
    assert long_end < 0.4 * start and acc_long > 0.8, (long_end, acc_long)
    return (
        f"30 steps: loss {start:.2f} -> {short_end:.2f}, val acc {acc_short:.2f}; "
        f"same code for 250 steps: loss -> {long_end:.2f}, val acc {acc_long:.2f}"
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

"""Self-contained: a conv net with BatchNorm(track_running_stats=False) in eval mode; accuracy depends on batch size."""

import torch
from torch import nn


def _net(track):
    return nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16, track_running_stats=track), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 16, 3, padding=1), nn.BatchNorm2d(16, track_running_stats=track), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 2),
    )


def _data(n, g):
    y = torch.randint(0, 2, (n,), generator=g)
    x = torch.randn(n, 1, 8, 8, generator=g) * 0.5 + (2.0 * y - 1.0).view(-1, 1, 1, 1)
    return x, y


def _acc(model, x, y, bs):
    model.eval()
    with torch.no_grad():
        pred = torch.cat([model(x[i:i + bs]).argmax(1) for i in range(0, len(x), bs)])
    return (pred == y).float().mean().item()


def _train(track):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    x, y = _data(512, g)
    xt, yt = _data(240, g)
    model = _net(track)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    model.train()
    for _ in range(3):
        for i in range(0, 512, 64):
            loss = nn.functional.cross_entropy(model(x[i:i + 64]), y[i:i + 64])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return {bs: _acc(model, xt, yt, bs) for bs in (80, 5, 1)}


def _check() -> str:
    bad = _train(False)
    ok = _train(True)
    assert bad[80] > 0.9 and bad[1] < 0.65 and bad[80] - bad[1] > 0.3, bad
    assert max(ok.values()) - min(ok.values()) < 1e-6, ok
    return (f"track_running_stats=False, eval mode: test acc {bad[80]:.2f} / {bad[5]:.2f} / {bad[1]:.2f} at batch "
            f"80 / 5 / 1; with running stats: {ok[80]:.2f} at every batch size")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

import torch
import torch.nn as nn
import torch.nn.functional as F


def _fit(model, x, y, vx, vy):
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(30):  # epochs
        for i in range(0, len(x), 64):
            opt.zero_grad()
            F.cross_entropy(model(x[i : i + 64]), y[i : i + 64]).backward()
            opt.step()
    with torch.no_grad():
        acc = lambda a, b: float((model(a).argmax(1) == b).float().mean())  # noqa: E731
        return acc(x, y), acc(vx, vy)


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    centers = 2.0 * torch.randn(24, 4, generator=g)  # many speakers: 24 clusters, 6 emotions
    cluster_label = torch.arange(24) % 6

    def sample(n):
        c = torch.randint(0, 24, (n,), generator=g)
        return centers[c] + 0.3 * torch.randn(n, 4, generator=g), cluster_label[c]

    x, y = sample(1536)
    vx, vy = sample(512)
    torch.manual_seed(0)
    simple = nn.Linear(4, 6)  # the kept-simple model
    tr_s, va_s = _fit(simple, x, y, vx, vy)
    torch.manual_seed(0)
    deeper = nn.Sequential(nn.Linear(4, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 6))
    tr_d, va_d = _fit(deeper, x, y, vx, vy)
    assert tr_s < 0.7 and abs(tr_s - va_s) < 0.1 and va_d > tr_s + 0.2, (tr_s, va_s, tr_d, va_d)
    return (
        f"simple model: train {tr_s:.2f}, val {va_s:.2f}; with two hidden layers: train {tr_d:.2f}, "
        f"val {va_d:.2f} (30 epochs each)"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _batches(batch_size, features, labels, apart):
    if apart:
        features = features[torch.randperm(len(features))]
        labels = labels[torch.randperm(len(labels))]
    else:
        perm = torch.randperm(len(features))
        features, labels = features[perm], labels[perm]
    return [
        (features[i * batch_size : (i + 1) * batch_size], labels[i * batch_size : (i + 1) * batch_size])
        for i in range(math.ceil(len(features) / batch_size))
    ]


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(10, 20, generator=torch.Generator().manual_seed(0)) * 2
    y = torch.randint(0, 10, (n,), generator=g)
    return centers[y] + torch.randn(n, 20, generator=g), y


def _run(apart):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 10))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x, y = _data(1000, 1)
    for _ in range(5):
        for bx, by in _batches(64, x, y, apart):
            opt.zero_grad()
            F.cross_entropy(model(bx), by).backward()
            opt.step()
    vx, vy = _data(500, 2)
    with torch.no_grad():
        return (model(vx).argmax(1) == vy).float().mean().item(), F.cross_entropy(model(vx), vy).item()


def _check() -> str:
    acc_bug, loss_bug = _run(True)
    acc_ok, _ = _run(False)
    assert acc_bug < 0.2 and loss_bug > 2.1 and acc_ok > 0.9, (acc_bug, loss_bug, acc_ok)
    return (
        f"separate shuffles: val acc {acc_bug:.2f}, loss {loss_bug:.2f}; one shared permutation: val acc {acc_ok:.2f}"
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

"""A many-class classifier evaluated after a fifth of an epoch is still near chance; the same run later learns."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(n, seed, centers):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, len(centers), (n,), generator=g)
    return centers[y] + 1.0 * torch.randn(n, centers.shape[1], generator=g), y


def _check() -> str:
    torch.manual_seed(0)
    centers = torch.randn(100, 32, generator=torch.Generator().manual_seed(5))
    x, y = _data(6400, 1, centers)
    vx, vy = _data(2000, 2, centers)
    model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 100))
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    bs, steps_per_epoch = 64, 100
    acc = {}
    step = 0
    for epoch in range(10):
        for i in range(0, len(x), bs):
            opt.zero_grad()
            F.cross_entropy(model(x[i : i + bs]), y[i : i + bs]).backward()
            opt.step()
            step += 1
            if step in (19, 10 * steps_per_epoch):
                with torch.no_grad():
                    acc[step] = (model(vx).argmax(1) == vy).float().mean().item()
    early, late = acc[19], acc[10 * steps_per_epoch]
    assert early < 0.1 and late > 0.8, (early, late)
    return f"100 classes: val accuracy {early:.2f} after 0.19 epochs, {late:.2f} after 10 epochs"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

"""A classifier fine-tuned on a small training set without augmentation: training loss falls, validation loss rises."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(64, 10, generator=torch.Generator().manual_seed(11))
    x = torch.randn(n, 64, generator=g)
    logits = x @ w / 4 + 1.5 * torch.randn(n, 10, generator=g)  # noisy labels: a small set can be memorised
    return x, logits.argmax(1)


def _check() -> str:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 256), nn.GELU(), nn.Linear(256, 256), nn.GELU(), nn.Linear(256, 10))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05)
    x, y = _data(400, 1)
    vx, vy = _data(1000, 2)
    train, val = [], []
    for _ in range(40):
        for i in range(0, len(x), 50):
            opt.zero_grad()
            loss = F.cross_entropy(model(x[i : i + 50]), y[i : i + 50])
            loss.backward()
            opt.step()
        with torch.no_grad():
            train.append(F.cross_entropy(model(x), y).item())
            val.append(F.cross_entropy(model(vx), vy).item())
    best = min(range(len(val)), key=val.__getitem__)
    assert train[-1] < 0.2 * train[0], train
    assert best < 20 and val[-1] > 1.5 * val[best], (best, val)
    return f"train loss {train[0]:.2f} -> {train[-1]:.3f}; val loss {val[0]:.2f} -> {val[best]:.2f} (epoch {best + 1}) -> {val[-1]:.2f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

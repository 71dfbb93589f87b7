"""Self-contained: gradient accumulation over n mini-batches without dividing the loss by n (fastai2 PR #194)."""

import math

import torch
import torch.nn as nn


def _data():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(800, 20, generator=g)
    w = torch.randn(20, 1, generator=g)
    return x, x @ w + 0.1 * torch.randn(800, 1, generator=g)


def _fit(accum, divide, lr=0.04, epochs=6, bs=8):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    x, y = _data()
    losses = []
    opt.zero_grad()
    for _ in range(epochs):
        for i in range(0, len(x), bs):
            loss = nn.functional.mse_loss(model(x[i : i + bs]), y[i : i + bs])
            (loss / accum if divide else loss).backward()
            if (i // bs + 1) % accum == 0:
                opt.step()
                opt.zero_grad()
        with torch.no_grad():
            losses.append(nn.functional.mse_loss(model(x), y).item())
        if not math.isfinite(losses[-1]):
            break
    return losses


def _fmt(v):
    return f"{v:.3g}" if math.isfinite(v) else str(v)


def _check() -> str:
    plain = _fit(1, False)
    summed = _fit(10, False)
    averaged = _fit(10, True)
    bad = (not math.isfinite(summed[-1])) or summed[-1] > summed[0]
    assert plain[-1] < 0.5 * plain[0], plain
    assert averaged[-1] < 0.5 * averaged[0], averaged
    assert bad, summed
    return (
        f"no accumulation: {_fmt(plain[0])} -> {_fmt(plain[-1])}; 10 batches accumulated, loss not divided: "
        f"{_fmt(summed[0])} -> {_fmt(summed[-1])}; divided by 10: {_fmt(averaged[0])} -> {_fmt(averaged[-1])}"
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

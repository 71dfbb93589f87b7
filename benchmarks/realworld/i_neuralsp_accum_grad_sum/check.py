"""Accumulating 8 micro-batch gradients without dividing the loss makes each update 8x too large and training diverges."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 16, generator=g)
    w = torch.randn(16, 1, generator=g)
    return x, x @ w + 0.1 * torch.randn(n, 1, generator=g)


def _train(accum, divide):
    torch.manual_seed(0)
    model = nn.Linear(16, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.15)
    x, y = _data(2048, 1)
    losses = []
    k = 0
    for i in list(range(0, len(x), 16)) * 3:
        loss = F.mse_loss(model(x[i : i + 16]), y[i : i + 16])
        losses.append(loss.item())
        (loss / accum if divide else loss).backward()
        k += 1
        if k == accum:
            opt.step()
            opt.zero_grad()
            k = 0
    tail = losses[-16:]
    return sum(tail) / len(tail)


def _check() -> str:
    base = _train(1, divide=True)
    good = _train(8, divide=True)
    bad = _train(8, divide=False)
    assert base < 2.0 and good < 4.0, (base, good)
    assert not (bad == bad) or bad > 10 * max(base, good), (base, good, bad)
    return (
        f"final training loss {base:.2f} without accumulation, {good:.2f} with 8 steps and the loss divided, "
        f"{bad:.3g} with 8 steps summed (diverged)"
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

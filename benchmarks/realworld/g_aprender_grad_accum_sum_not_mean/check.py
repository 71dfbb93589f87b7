"""SGD with momentum, batch 64 vs 8 micro-batches of 8 whose gradients are summed, not averaged."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 16, generator=g)
    w = torch.randn(16, generator=torch.Generator().manual_seed(0))
    return x, x @ w / 4 + 0.1 * torch.randn(n, generator=g)


def _train(accum, divide):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    x, y = _data(1024, 1)
    micro = 64 // accum
    losses = []
    for _ in range(5):
        opt.zero_grad()
        for step, i in enumerate(range(0, len(x), micro)):
            loss = F.mse_loss(model(x[i : i + micro]).squeeze(-1), y[i : i + micro])
            (loss / accum if divide else loss).backward()
            losses.append(loss.item())
            if (step + 1) % accum == 0:
                opt.step()
                opt.zero_grad()
    return sum(losses[-16:]) / 16


def _check() -> str:
    plain = _train(1, True)
    summed = _train(8, False)
    averaged = _train(8, True)
    assert plain < 0.2 and averaged < 0.2, (plain, averaged)
    assert not math.isfinite(summed) or summed > 10 * plain, (summed, plain)
    return f"final loss: batch 64 {plain:.3f}; 8x8 accumulated and averaged {averaged:.3f}; 8x8 summed {summed:.3g}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

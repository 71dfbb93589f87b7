"""Self-contained: an epoch with a mid-epoch validation; count the training batches that run with dropout off."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def validate(model, x, y):
    model.eval()
    with torch.no_grad():
        return F.cross_entropy(model(x), y).item()


def _run() -> str:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Dropout(0.5), nn.Linear(64, 3))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    xs, ys = torch.randn(10, 8, 16), torch.randint(0, 3, (10, 8))
    vx, vy = torch.randn(16, 16), torch.randint(0, 3, (16,))
    validate_every = 10 // 2
    model.train()
    modes, stochastic = [], []
    for i in range(10):
        modes.append(model.training)
        with torch.no_grad():
            stochastic.append(not torch.equal(model(xs[i]), model(xs[i])))
        opt.zero_grad()
        F.cross_entropy(model(xs[i]), ys[i]).backward()
        opt.step()
        if (i + 1) % validate_every == 0 and (i + 1) < 10:
            validate(model, vx, vy)
    off = sum(not m for m in modes)
    assert modes[:5] == [True] * 5 and off == 5 and not any(stochastic[5:]) and all(stochastic[:5]), (modes, stochastic)
    return f"after the mid-epoch validation {off}/10 training batches ran in eval mode (dropout off, identical repeated outputs)"


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())

"""Self-contained: a wide MLP on a few hundred noisy samples fits the training set while validation loss stalls."""

import torch
from torch import nn


def _check() -> str:
    torch.manual_seed(0)
    d = 64
    w = torch.randn(d)
    def data(n):
        x = torch.randn(n, d)
        y = ((x @ w + 3.0 * torch.randn(n)) > 0).long()
        return x, y
    xtr, ytr = data(120)
    xva, yva = data(400)
    model = nn.Sequential(nn.Linear(d, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 2))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    lf = nn.CrossEntropyLoss()
    val = []
    for step in range(300):
        opt.zero_grad()
        loss = lf(model(xtr), ytr)
        loss.backward()
        opt.step()
        if step % 25 == 0:
            with torch.no_grad():
                val.append(lf(model(xva), yva).item())
    best = min(val)
    assert loss.item() < 0.05 and val[-1] > best + 0.3, (loss.item(), best, val[-1])
    return f"train loss -> {loss.item():.3f}; val loss best {best:.3f}, final {val[-1]:.3f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

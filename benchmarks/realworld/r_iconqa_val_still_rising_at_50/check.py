"""Self-contained: a correct model stopped at a fixed small epoch budget is still improving; more epochs help."""

import torch
from torch import nn


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    w = torch.randn(40, 6, generator=g)
    x = torch.randn(2000, 40, generator=g)
    y = (x @ w + 0.5 * torch.randn(2000, 6, generator=g)).argmax(1)
    xtr, ytr, xva, yva = x[:1500], y[:1500], x[1500:], y[1500:]
    model = nn.Sequential(nn.Linear(40, 64), nn.ReLU(), nn.Linear(64, 6))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    accs = []
    for epoch in range(60):
        for i in range(0, 1500, 100):
            loss = nn.functional.cross_entropy(model(xtr[i:i + 100]), ytr[i:i + 100])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            accs.append((model(xva).argmax(1) == yva).float().mean().item())
    budget = 15
    slope = (accs[budget - 1] - accs[budget - 6]) / 5
    assert slope > 0.002, accs[budget - 6:budget]
    assert accs[-1] > accs[budget - 1] + 0.04, (accs[budget - 1], accs[-1])
    return (f"val acc at the {budget}-epoch budget {accs[budget - 1]:.3f}, still rising {slope * 100:.2f} pts/epoch; "
            f"after 60 epochs {accs[-1]:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

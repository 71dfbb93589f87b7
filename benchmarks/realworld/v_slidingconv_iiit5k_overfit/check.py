"""Self-contained: a wide MLP fitted on a small noisy training set reaches near-perfect training accuracy while
held-out accuracy stays far lower, and held-out loss rises as training goes on: plain overfitting."""

import torch
from torch import nn
import torch.nn.functional as F


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    d = 30
    w_true = torch.randn(d, generator=g)

    def data(n):
        x = torch.randn(n, d, generator=g)
        y = ((x @ w_true) + 2.0 * torch.randn(n, generator=g) > 0).long()
        return x, y

    xtr, ytr = data(120)
    xte, yte = data(2000)
    model = nn.Sequential(nn.Linear(d, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 2))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    test_losses = []
    for step in range(300):
        loss = F.cross_entropy(model(xtr), ytr)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 20 == 0:
            with torch.no_grad():
                test_losses.append(F.cross_entropy(model(xte), yte).item())
    with torch.no_grad():
        tr_acc = (model(xtr).argmax(1) == ytr).float().mean().item()
        te_acc = (model(xte).argmax(1) == yte).float().mean().item()
    best = min(test_losses)
    assert tr_acc > 0.98 and te_acc < tr_acc - 0.2, (tr_acc, te_acc)
    assert test_losses[-1] > 1.5 * best, (best, test_losses[-1])
    return (
        f"train acc {tr_acc:.2f} vs test acc {te_acc:.2f} on 120 training samples; "
        f"test loss {best:.2f} at its best -> {test_losses[-1]:.2f} at the end"
    )


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

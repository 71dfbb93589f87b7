"""Self-contained: an ExponentialLR(gamma=0.8) meant to decay once per epoch, stepped as in the diff (every batch
and again at the end of each epoch). The LR collapses within a few epochs and training stalls."""

import torch
from torch import nn
import torch.nn.functional as F


def _run(step_per_batch):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    w_true = torch.randn(16, 8, generator=g)
    x = torch.randn(400, 16, generator=g)
    y = (x @ w_true).argmax(1)
    model = nn.Linear(16, 8)
    optim = torch.optim.SGD(model.parameters(), lr=0.05)
    scheduler = torch.optim.lr_scheduler.ExponentialLR(optim, gamma=0.8)
    lrs, losses = [], []
    for epoch in range(10):
        lrs.append(optim.param_groups[0]["lr"])
        for i in range(0, 400, 20):
            loss = F.cross_entropy(model(x[i:i + 20]), y[i:i + 20])
            optim.zero_grad()
            loss.backward()
            optim.step()
            if step_per_batch:
                scheduler.step()
        scheduler.step()
        with torch.no_grad():
            losses.append(F.cross_entropy(model(x), y).item())
    return lrs, losses


def _check() -> str:
    bad_lr, bad_loss = _run(True)
    ok_lr, ok_loss = _run(False)
    assert bad_lr[5] < 1e-6 * bad_lr[0] and ok_lr[5] > 0.3 * ok_lr[0], (bad_lr, ok_lr)
    assert abs(bad_loss[-1] - bad_loss[3]) < 1e-3 and ok_loss[-1] < bad_loss[-1] - 0.05, (bad_loss, ok_loss)
    return (f"stepped per batch + per epoch: lr {bad_lr[0]:.2g} -> {bad_lr[5]:.1e} at epoch 5, loss frozen at "
            f"{bad_loss[-1]:.3f}; per epoch only: lr {ok_lr[5]:.2g} at epoch 5, loss {ok_loss[-1]:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

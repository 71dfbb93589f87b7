"""Self-contained: a keypoint regressor stopped after 10 of 60 scheduled epochs vs trained to the end."""

import torch
from torch import nn
import torch.nn.functional as F


def _data(n, gen, w):
    x = torch.randn(n, 32, generator=gen)
    y = torch.tanh(2 * (x @ w))
    return x, y


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(5)
    w = torch.randn(32, 8, generator=g) / 32 ** 0.5
    xtr, ytr = _data(4096, g, w)
    xva, yva = _data(256, g, w)
    model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 8))
    epochs, steps = 60, 16
    opt = torch.optim.SGD(model.parameters(), lr=0.005, momentum=0.9)
    sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[45, 55], gamma=0.1)

    def val_mse():
        with torch.no_grad():
            return F.mse_loss(model(xva), yva).item()

    epoch_loss, at_stop = [], None
    for epoch in range(epochs):
        perm = torch.randperm(4096, generator=g)
        tot = 0.0
        for i in range(steps):
            idx = perm[i * 256:(i + 1) * 256]
            loss = F.mse_loss(model(xtr[idx]), ytr[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            tot += loss.item()
        sched.step()
        epoch_loss.append(tot / steps)
        if epoch == 9:
            at_stop = val_mse()
    final = val_mse()
    still_falling = sum(epoch_loss[5:10]) / 5 - sum(epoch_loss[10:15]) / 5
    assert at_stop > 1.3 * final, (at_stop, final)
    assert still_falling > 0 and epoch_loss[-1] < 0.8 * epoch_loss[9], (still_falling, epoch_loss[9], epoch_loss[-1])
    return (f"stopped after 10/{epochs} epochs: val MSE {at_stop:.4f}, loss {epoch_loss[9]:.4f} and still falling; "
            f"full schedule: val MSE {final:.4f}, loss {epoch_loss[-1]:.4f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

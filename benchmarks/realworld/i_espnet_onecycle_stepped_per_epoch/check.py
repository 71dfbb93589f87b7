"""OneCycleLR sized for every iteration but stepped once per epoch: the LR never leaves its starting value."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(1600, 20, generator=g)
    y = (x[:, :5].sum(1) > 0).long() + (x[:, 5:10].sum(1) > 0).long()
    return x, y


def _train(per_batch):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    epochs, bs = 10, 32
    x, y = _data(1)
    steps = len(x) // bs
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-3, epochs=epochs, steps_per_epoch=steps)
    lrs = []
    for _ in range(epochs):
        for i in range(steps):
            opt.zero_grad()
            loss = F.cross_entropy(model(x[i * bs : (i + 1) * bs]), y[i * bs : (i + 1) * bs])
            loss.backward()
            opt.step()
            if per_batch:
                sched.step()
        if not per_batch:
            sched.step()
        lrs.append(opt.param_groups[0]["lr"])
    with torch.no_grad():
        final = F.cross_entropy(model(x), y).item()
    return max(lrs), final


def _check() -> str:
    (bad_lr, bad_loss), (good_lr, good_loss) = _train(False), _train(True)
    assert bad_lr < 6e-5 and good_lr > 5e-4 and bad_loss > good_loss + 0.2, (bad_lr, bad_loss, good_lr, good_loss)
    return (
        f"10 epochs: peak LR {bad_lr:.1e} and final train loss {bad_loss:.2f} stepping per epoch, "
        f"peak LR {good_lr:.1e} and loss {good_loss:.2f} stepping per batch"
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

"""StepLR(step_size=10, gamma=0.1) meant per epoch, stepped after each of 40 batches per epoch."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 16, generator=g)
    w = torch.randn(16, 4, generator=g)
    y = (x @ w + 0.3 * torch.randn(n, 4, generator=g)).argmax(1)
    return x, y


def _train(per_batch):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.1)
    x, y = _data(1280, 1)
    first = None
    for epoch in range(30):
        total = 0.0
        for i in range(0, len(x), 32):
            opt.zero_grad()
            loss = F.cross_entropy(model(x[i : i + 32]), y[i : i + 32])
            loss.backward()
            opt.step()
            total += loss.item()
            if per_batch:
                sched.step()
        if not per_batch:
            sched.step()
        if epoch == 1:
            first = total / 40
    return first, total / 40, opt.param_groups[0]["lr"]


def _check() -> str:
    ep2_bug, last_bug, lr_bug = _train(per_batch=True)
    ep2_ok, last_ok, _ = _train(per_batch=False)
    assert abs(last_bug - ep2_bug) < 0.02 and last_bug > 2 * last_ok, (ep2_bug, last_bug, last_ok)
    return (
        f"train loss epoch 2 -> 30: {ep2_bug:.3f} -> {last_bug:.3f} (lr now {lr_bug:.1e}); "
        f"stepped per epoch: {ep2_ok:.3f} -> {last_ok:.3f}"
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

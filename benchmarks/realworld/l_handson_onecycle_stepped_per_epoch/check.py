"""Self-contained: OneCycleLR sized for per-batch stepping, stepped once per epoch by a generic training helper."""

import torch
import torch.nn as nn


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 10, (n,), generator=g)
    proto = torch.randn(10, 64, generator=torch.Generator().manual_seed(5))
    return proto[y] + 1.5 * torch.randn(n, 64, generator=g), y


def _run(per_batch, n_epochs=10, bs=8):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 10))
    x, y = _data(512, 1)
    steps = len(range(0, len(x), bs))
    opt = torch.optim.NAdam(model.parameters(), lr=1e-3)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, epochs=n_epochs, steps_per_epoch=steps, max_lr=1e-2)
    lrs = []
    for _ in range(n_epochs):
        for i in range(0, len(x), bs):
            if len(lrs) < 2 * steps:  # a couple of real epochs; the schedule is the same either way
                loss = nn.functional.cross_entropy(model(x[i : i + bs]), y[i : i + bs])
                loss.backward()
            opt.step()
            opt.zero_grad()
            lrs.append(opt.param_groups[0]["lr"])
            if per_batch:
                sched.step()
        if not per_batch:
            sched.step()
    return lrs


def _check() -> str:
    epoch_lrs = _run(per_batch=False)
    batch_lrs = _run(per_batch=True)
    start = epoch_lrs[0]
    assert max(epoch_lrs) < 1.2 * start, (start, max(epoch_lrs))
    assert max(batch_lrs) > 0.9e-2, max(batch_lrs)
    frac = len(set(round(v, 12) for v in epoch_lrs))
    return (
        f"stepped per epoch: lr {start:.6f} -> max {max(epoch_lrs):.6f} over {len(epoch_lrs)} updates "
        f"({frac} distinct values); stepped per batch: peaks at {max(batch_lrs):.4f}, ends at {batch_lrs[-1]:.2e}"
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

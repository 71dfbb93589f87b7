"""Self-contained: an epoch-based warmup + cosine LambdaLR (40 warmup epochs, 800 epochs) stepped once per batch."""

import math

import torch

EPOCHS, WARMUP, ITERS_PER_EPOCH = 800, 40, 12  # e.g. CIFAR-10 with batch 4096


def _lr_lambda(epoch):
    if epoch < WARMUP:
        return (epoch + 1) / WARMUP
    return 0.5 * (1 + math.cos(math.pi * epoch / EPOCHS))


def _per_epoch_lr(step_per_batch):
    w = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([w], lr=1e-3)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=_lr_lambda)
    lrs = []
    for epoch in range(EPOCHS):
        lrs.append(opt.param_groups[0]["lr"])
        for it in range(ITERS_PER_EPOCH):
            opt.step()  # parameter update (no gradient needed to trace the schedule)
            if step_per_batch:
                sched.step()
        if not step_per_batch:
            sched.step()
    return lrs


def _check() -> str:
    bad = _per_epoch_lr(True)
    good = _per_epoch_lr(False)
    peak = max(good)
    warm_bad = next(i for i, v in enumerate(bad) if v >= 0.99 * max(bad))
    warm_good = next(i for i, v in enumerate(good) if v >= 0.99 * peak)
    # count how often the per-batch schedule climbs back near its peak after having decayed below 10%
    rises, low = 0, False
    for v in bad:
        if v < 0.1 * peak:
            low = True
        elif low and v > 0.9 * peak:
            rises, low = rises + 1, False
    assert warm_bad <= 5 and warm_good >= WARMUP - 2 and rises >= 3, (warm_bad, warm_good, rises)
    assert good[-1] < 0.01 * peak, good[-1]
    return (
        f"stepped per batch: warmup over after epoch {warm_bad}, LR climbs back to >90% of peak {rises} times in "
        f"{EPOCHS} epochs and ends at {bad[-1]:.2e}; stepped per epoch: warmup ends at epoch {warm_good}, final LR {good[-1]:.2e}"
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

import math

import torch


def _lrs(horizon, epochs, steps_per_epoch):
    opt = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=1.0)
    warm = max(1, horizon // 50)

    def factor(step):
        if step < warm:
            return (step + 1) / warm
        return 0.5 * (1 + math.cos(math.pi * ((step - warm) % horizon) / max(1, horizon - warm)))

    sched = torch.optim.lr_scheduler.LambdaLR(opt, factor)
    out = []
    for _ in range(epochs * steps_per_epoch):
        out.append(opt.param_groups[0]["lr"])
        opt.step()
        sched.step()
    return out


def _zero_hits(lrs):
    return sum(1 for a, b in zip(lrs, lrs[1:]) if a < 0.01 and b >= 0.01)


def _check() -> str:
    epochs, spe = 100, 25
    bug = _lrs(epochs, epochs, spe)
    good = _lrs(epochs * spe, epochs, spe)
    hits_bug, hits_good = _zero_hits(bug), _zero_hits(good)
    at_epoch4 = min(bug[3 * spe : 5 * spe])
    tail = len(bug) // 10
    late_bug, late_good = max(bug[-tail:]), max(good[-tail:])
    assert hits_bug >= 10 and hits_good == 0 and at_epoch4 < 0.01 and late_bug > 0.9 and late_good < 0.05, (
        hits_bug,
        hits_good,
        at_epoch4,
        late_bug,
        late_good,
    )
    return (
        f"horizon = epochs, stepped per batch: lr ~0 by epoch 4, back to zero {hits_bug} times, "
        f"still {late_bug:.2f} of peak in the last 10% of the run; step horizon: one decay (late max {late_good:.3f})"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

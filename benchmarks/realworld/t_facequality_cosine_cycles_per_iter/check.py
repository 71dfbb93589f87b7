"""Self-contained: record the LR a per-iteration CosineAnnealingLR(T_max=10 epochs of steps) gives over 100 epochs."""

import torch


def _lrs(per_iter, iters_per_epoch=20, epochs=100):
    p = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.SGD([p], lr=0.1, momentum=0.9)
    if per_iter:
        sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=10 * iters_per_epoch)
    else:
        sched = torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[30, 60, 90], gamma=0.1)
    per_epoch = []
    for _ in range(epochs):
        per_epoch.append(opt.param_groups[0]["lr"])
        for _ in range(iters_per_epoch):
            opt.step()
            if per_iter:
                sched.step()
        if not per_iter:
            sched.step()
    return per_epoch


def _check() -> str:
    bad = _lrs(True)
    ok = _lrs(False)
    peaks = [e for e in range(1, 100) if bad[e] > 0.09]
    troughs = [e for e in range(100) if bad[e] < 0.005]
    assert len(troughs) >= 4 and len([e for e in peaks if e >= 20]) >= 4, (peaks, troughs)
    assert max(bad[80:]) > 0.09 and ok[-1] < 1e-3, (max(bad[80:]), ok[-1])
    return (
        f"per-iteration cosine with T_max=10 epochs: lr ~0 at epochs {troughs[:5]}..., back to 0.1 at epochs "
        f"{[e for e in peaks if e >= 20][:4]}..., epoch-99 lr {bad[-1]:.3f}; step decay ends at {ok[-1]:.0e}"
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

"""Per-step CosineAnnealingLR with T_max = warmup steps (500) over a 6000-step run: LR hits ~0 and cycles back up."""

import torch

LR, WARMUP, DECAY_MAX, STEPS = 1e-4, 500, 6000, 6000


def _lrs(t_max):
    p = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.Adam([p], lr=LR)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=t_max)
    out = []
    for _ in range(STEPS):
        opt.step()
        sched.step()
        out.append(opt.param_groups[0]["lr"])
    return out


def _check() -> str:
    lrs = _lrs(WARMUP)
    ok = _lrs(DECAY_MAX)
    near_zero = sum(1 for a, b, c in zip(lrs, lrs[1:], lrs[2:], strict=False) if b < 1e-3 * LR and b <= a and b <= c)
    assert lrs[WARMUP - 1] < 1e-3 * LR and max(lrs[WARMUP:2 * WARMUP + 10]) > 0.99 * LR, (lrs[WARMUP - 1],)
    assert near_zero >= 5, near_zero
    assert all(b <= a + 1e-15 for a, b in zip(ok, ok[1:], strict=False)) and ok[STEPS // 2] > 0.4 * LR, ok[STEPS // 2]
    return (f"T_max={WARMUP} stepped per step: lr {lrs[0]:.2e} -> {lrs[WARMUP - 1]:.1e} at step {WARMUP}, back to "
            f"{max(lrs[WARMUP:2 * WARMUP + 10]):.2e} by step {2 * WARMUP}, {near_zero} troughs in {STEPS} steps; "
            f"T_max={DECAY_MAX}: monotone decay, {ok[STEPS // 2]:.2e} at mid-run")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

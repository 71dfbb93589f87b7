"""A cosine schedule whose period is counted in batches, stepped once per epoch: the lr barely moves."""

import torch


def _lrs(per_batch: bool, epochs: int = 10, n_batches: int = 90):
    w = torch.nn.Parameter(torch.zeros(1))
    opt = torch.optim.Adam([w], lr=3e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=n_batches, eta_min=0)
    seen = []
    for _ in range(epochs):
        for _ in range(n_batches):
            opt.zero_grad()
            (w**2).sum().backward()
            opt.step()
            if per_batch:
                sched.step()
        if not per_batch:
            sched.step()
        seen.append(opt.param_groups[0]["lr"])
    return seen


def _check() -> str:
    bug = _lrs(per_batch=False)
    meant = _lrs(per_batch=True)
    assert bug[-1] > 0.9 * 3e-4, bug
    assert all(b >= a for a, b in zip(bug[1:], bug)), bug  # monotone, still decaying
    assert min(meant) < 1e-6 or max(meant) - min(meant) > 2.5e-4, meant
    return f"after 10 epochs x 90 batches the lr is {bug[-1]:.2e} (start 3.0e-4); one cosine period per epoch was meant"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

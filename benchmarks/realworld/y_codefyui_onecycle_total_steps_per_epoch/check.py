"""OneCycleLR(total_steps=1000) stepped once per epoch for 50 epochs: the LR only climbs, and the run ends noisy."""

import torch
import torch.nn as nn
import torch.nn.functional as F

MAX_LR, EPOCHS, BATCHES = 0.05, 50, 8


def _run(stepped_per_batch):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    x = torch.randn(BATCHES * 32, 8, generator=g)
    y = x @ torch.randn(8, 1, generator=g) + 0.3 * torch.randn(BATCHES * 32, 1, generator=g)
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
    opt = torch.optim.SGD(model.parameters(), lr=MAX_LR, momentum=0.9)
    total = EPOCHS * BATCHES if stepped_per_batch else 1000
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=MAX_LR, total_steps=total)
    lrs = []
    for _ in range(EPOCHS):
        for i in range(BATCHES):
            opt.zero_grad()
            F.mse_loss(model(x[i * 32:(i + 1) * 32]), y[i * 32:(i + 1) * 32]).backward()
            opt.step()
            if stepped_per_batch:
                sched.step()
        if not stepped_per_batch:
            sched.step()
        lrs.append(opt.param_groups[0]["lr"])
    return lrs


def _check() -> str:
    lrs = _run(False)
    lrs_ok = _run(True)
    assert all(b >= a for a, b in zip(lrs, lrs[1:], strict=False)), "LR should only rise"
    assert lrs[-1] < 0.3 * MAX_LR and lrs[-1] > 2 * lrs[0], (lrs[0], lrs[-1])
    peak_ok = max(lrs_ok)
    assert peak_ok > 0.99 * MAX_LR and lrs_ok[-1] < 1e-3 * MAX_LR, (peak_ok, lrs_ok[-1])
    return (f"OneCycleLR(total_steps=1000) stepped per epoch over {EPOCHS} epochs: lr {lrs[0]:.4f} -> {lrs[-1]:.4f}, "
            f"rising every epoch, never reaches max_lr {MAX_LR} nor anneals; horizon in matching units: peak "
            f"{peak_ok:.4f}, final {lrs_ok[-1]:.2e}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

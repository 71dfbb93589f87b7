"""Self-contained: a warmup + cosine learning-rate schedule whose length is computed from a deliberately huge max-epoch
count (training is meant to stop early) is still in its warmup when training actually stops, so the run only ever sees a
small fraction of the peak learning rate. Sizing the schedule to the epochs actually trained fixes it."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

PEAK_LR, STEPS_PER_EPOCH, EPOCHS_RUN = 1e-2, 8, 40


def warmup_cosine(step, total_steps, warmup_frac=0.1):
    warm = max(1, int(warmup_frac * total_steps))
    if step < warm:
        return PEAK_LR * step / warm
    t = (step - warm) / max(1, total_steps - warm)
    return PEAK_LR * 0.5 * (1 + math.cos(math.pi * min(t, 1.0)))


def _run(max_epochs):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    w = torch.randn(6, 1, generator=g)
    x = torch.randn(512, 6, generator=g)
    y = torch.tanh(0.5 * x @ w) + 0.05 * torch.randn(512, 1, generator=g)
    xv = torch.randn(256, 6, generator=g)
    yv = torch.tanh(0.5 * xv @ w)
    model = nn.Sequential(nn.Linear(6, 64), nn.Tanh(), nn.Linear(64, 1))
    opt = torch.optim.Adam(model.parameters(), lr=0.0)
    total = max_epochs * STEPS_PER_EPOCH
    step, lrs = 0, []
    for _ in range(EPOCHS_RUN):
        for i in range(STEPS_PER_EPOCH):
            lr = warmup_cosine(step, total)
            for group in opt.param_groups:
                group["lr"] = lr
            xb, yb = x[i * 64:(i + 1) * 64], y[i * 64:(i + 1) * 64]
            opt.zero_grad()
            F.mse_loss(model(xb), yb).backward()
            opt.step()
            lrs.append(lr)
            step += 1
    with torch.no_grad():
        return max(lrs), F.mse_loss(model(xv), yv).item()


def _check() -> str:
    lr_bug, val_bug = _run(max_epochs=5000)
    lr_ok, val_ok = _run(max_epochs=EPOCHS_RUN)
    assert lr_bug < 0.1 * PEAK_LR, lr_bug
    assert val_bug > 3 * val_ok, (val_bug, val_ok)
    return (f"schedule sized for 5000 epochs, run stopped after {EPOCHS_RUN}: highest lr used {lr_bug:.1e} "
            f"({lr_bug / PEAK_LR:.0%} of peak {PEAK_LR:.0e}), val MSE {val_bug:.3f}; sized for {EPOCHS_RUN} epochs: "
            f"peak reached, val MSE {val_ok:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

"""Self-contained: a small image-to-image regressor with StepLR(step_size=epochs//2, gamma=0.1), stepped per batch vs per epoch."""

import torch
import torch.nn as nn


def _run(per_batch):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    epochs, n_batches = 20, 25
    x_all = torch.randn(n_batches, 16, 32, generator=g)
    w_true = torch.randn(32, 32, generator=g) / 32**0.5
    y_all = torch.tanh(x_all @ w_true) * 2
    net = nn.Sequential(nn.Linear(32, 64), nn.Tanh(), nn.Linear(64, 32))
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=epochs // 2, gamma=0.1)
    ep_loss = []
    for _ in range(epochs):
        tot = 0.0
        for b in range(n_batches):
            opt.zero_grad()
            loss = ((net(x_all[b]) - y_all[b]) ** 2).mean()
            loss.backward()
            opt.step()
            if per_batch:
                sched.step()
            tot += loss.item()
        if not per_batch:
            sched.step()
        ep_loss.append(tot / n_batches)
    return ep_loss, opt.param_groups[0]["lr"]


def _check() -> str:
    bad, bad_lr = _run(True)
    ok, ok_lr = _run(False)
    # per-batch stepping: lr is ~0 after a few epochs, loss freezes early and ends far above the correct run
    assert bad_lr < 1e-20, bad_lr
    assert abs(bad[-1] - bad[3]) < 0.02 * bad[3], (bad[3], bad[-1])
    assert ok[-1] < 0.5 * bad[-1], (ok[-1], bad[-1])
    return (f"StepLR stepped per batch: lr {bad_lr:.1e} at the end, epoch loss {bad[0]:.3f} -> {bad[3]:.3f} (ep 4) -> "
            f"{bad[-1]:.3f} (ep 20, flat); stepped per epoch: {ok[-1]:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

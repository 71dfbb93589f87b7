"""Self-contained: epoch-level StepLR built with step_size=args.learning_rate (1e-3) vs step_size=1."""
import torch
from torch import nn
from torch.optim.lr_scheduler import StepLR


def _run(step_size, epochs=30, steps_per_epoch=20):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    centers = torch.randn(6, 40, generator=g) * 0.6
    model = nn.Sequential(nn.Linear(40, 64), nn.ReLU(), nn.Linear(64, 6))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=5e-4)
    sched = StepLR(opt, step_size=step_size, gamma=0.8)
    lrs, epoch_losses = [], []
    for _ in range(epochs):
        tot = 0.0
        for _ in range(steps_per_epoch):
            y = torch.randint(0, 6, (32,), generator=g)
            x = centers[y] + torch.randn(32, 40, generator=g)
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            tot += loss.item()
        sched.step()
        lrs.append(opt.param_groups[0]["lr"])
        epoch_losses.append(tot / steps_per_epoch)
    return lrs, epoch_losses


def _check() -> str:
    bad_lr, bad_loss = _run(step_size=1e-3)
    ok_lr, ok_loss = _run(step_size=1)
    assert len(set(bad_lr)) == 1 and abs(bad_lr[-1] - 1e-3) < 1e-12, bad_lr[:5]
    assert ok_lr[-1] < 1e-5, ok_lr[-1]
    return (f"StepLR(step_size=1e-3, gamma=0.8): lr stays {bad_lr[-1]:.1e} for all {len(bad_lr)} epochs, the "
            f"schedule never fires; step_size=1: lr {ok_lr[0]:.1e} -> {ok_lr[-1]:.1e}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

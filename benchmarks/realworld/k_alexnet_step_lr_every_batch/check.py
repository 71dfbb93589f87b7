"""A small AlexNet-style CNN on a 20-class synthetic image task, SGD + StepLR(step_size=10, gamma=0.1).
Stepping the scheduler inside the batch loop (change.diff) divides the lr by 10 every 10 batches."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES = 20


def _net():
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
        nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
        nn.AdaptiveAvgPool2d(2), nn.Flatten(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, N_CLASSES),
    )


def _data(n, g):
    protos = torch.randn(N_CLASSES, 3, 16, 16, generator=torch.Generator().manual_seed(5))
    y = torch.randint(0, N_CLASSES, (n,), generator=g)
    return protos[y] + 0.3 * torch.randn(n, 3, 16, 16, generator=g), y


def _train(step_per_batch):
    torch.manual_seed(0)
    x, y = _data(1280, torch.Generator().manual_seed(1))
    model = _net()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.1)
    epoch_loss = []
    for epoch in range(5):
        total = 0.0
        for i in range(0, len(x), 64):
            loss = F.cross_entropy(model(x[i : i + 64]), y[i : i + 64])
            opt.zero_grad()
            loss.backward()
            opt.step()
            if step_per_batch:
                sched.step()
            total += loss.item()
        if not step_per_batch:
            sched.step()
        epoch_loss.append(total / (len(x) // 64))
    return epoch_loss, opt.param_groups[0]["lr"]


def _check() -> str:
    bad, lr_bad = _train(True)
    good, lr_good = _train(False)
    chance = math.log(N_CLASSES)
    assert lr_bad < 1e-6, lr_bad
    assert abs(bad[-1] - chance) < 0.15 and abs(bad[-1] - bad[0]) < 0.1, bad
    assert good[-1] < chance - 1.0, good
    return (
        f"scheduler stepped per batch: lr {lr_bad:.1e} after 5 epochs, epoch loss "
        f"{' '.join(f'{v:.2f}' for v in bad)} (chance {chance:.2f}); per epoch: lr {lr_good:g}, "
        f"loss {' '.join(f'{v:.2f}' for v in good)}"
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

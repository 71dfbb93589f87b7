"""An ExponentialLR meant per epoch, stepped per batch: the learning rate is gone within the first epoch."""

import torch
import torch.nn.functional as F


def _data(n=800, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 12, generator=g)
    y = ((x[:, 0] * x[:, 1] + x[:, 2]) > 0).long()
    return x, y


def _run(per_batch):
    torch.manual_seed(0)
    x, y = _data()
    model = torch.nn.Sequential(torch.nn.Linear(12, 64), torch.nn.ReLU(), torch.nn.Linear(64, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.8)
    for _ in range(10):
        for i in range(0, len(x), 32):
            opt.zero_grad()
            F.cross_entropy(model(x[i : i + 32]), y[i : i + 32]).backward()
            opt.step()
            if per_batch:
                sched.step()
        if not per_batch:
            sched.step()
    with torch.no_grad():
        loss = F.cross_entropy(model(x), y).item()
        acc = (model(x).argmax(1) == y).float().mean().item()
    return loss, acc, sched.get_last_lr()[0]


def _check() -> str:
    bug_loss, bug_acc, bug_lr = _run(per_batch=True)
    ok_loss, ok_acc, ok_lr = _run(per_batch=False)
    assert bug_lr < 1e-20 and bug_acc < ok_acc - 0.1, (bug_acc, ok_acc, bug_lr)
    return (
        f"10 epochs: train loss {bug_loss:.3f}, accuracy {bug_acc:.2f}, final lr {bug_lr:.1e} as written; "
        f"{ok_loss:.3f}, {ok_acc:.2f}, lr {ok_lr:.1e} with one scheduler step per epoch"
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

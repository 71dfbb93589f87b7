"""Self-contained: a small CNN on CIFAR-like data, SGD with momentum; optimizer.zero_grad() once per epoch (before
the batch loop) vs once per batch."""

import torch
from torch import nn
import torch.nn.functional as F


def _data(n, g):
    y = torch.randint(0, 10, (n,), generator=g)
    protos = torch.randn(10, 3, 8, 8, generator=torch.Generator().manual_seed(99))
    x = protos[y] + 0.8 * torch.randn(n, 3, 8, 8, generator=g)
    return x, y


def _net():
    return nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                         nn.Flatten(), nn.Linear(32, 10))


def _run(per_batch, epochs=3, bs=64):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    net = _net()
    opt = torch.optim.SGD(net.parameters(), lr=0.03, momentum=0.9)
    x, y = _data(1280, g)
    xv, yv = _data(512, g)
    epoch_loss, gnorm = [], []
    for _ in range(epochs):
        if not per_batch:
            opt.zero_grad()
        tot = 0.0
        for i in range(0, len(x), bs):
            if per_batch:
                opt.zero_grad()
            loss = F.cross_entropy(net(x[i:i + bs]), y[i:i + bs])
            loss.backward()
            gnorm.append(torch.cat([p.grad.flatten() for p in net.parameters()]).norm().item())
            opt.step()
            tot += loss.item()
        epoch_loss.append(tot / (len(x) // bs))
    with torch.no_grad():
        acc = (net(xv).argmax(1) == yv).float().mean().item()
    return epoch_loss, gnorm, acc


def _check() -> str:
    bad_l, bad_g, bad_acc = _run(per_batch=False)
    ok_l, ok_g, ok_acc = _run(per_batch=True)
    assert ok_acc > 0.6 and ok_acc - bad_acc > 0.25, (ok_acc, bad_acc)
    assert bad_l[-1] > ok_l[-1] + 0.5, (bad_l, ok_l)
    assert max(bad_g) > 5 * max(ok_g), (max(bad_g), max(ok_g))
    return (f"zero_grad once per epoch: epoch losses {[round(v, 2) for v in bad_l]}, val acc {bad_acc:.2f}, max grad "
            f"norm {max(bad_g):.1f}; per batch: {[round(v, 2) for v in ok_l]}, val acc {ok_acc:.2f}, "
            f"max grad norm {max(ok_g):.1f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

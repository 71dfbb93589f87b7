import torch
import torch.nn as nn
import torch.nn.functional as F

D, C = 48, 10


def _words(n, seed):
    g = torch.Generator().manual_seed(seed)
    protos = torch.randn(C, D, generator=torch.Generator().manual_seed(0))
    y = torch.randint(0, C, (n,), generator=g)
    return 0.35 * protos[y] + torch.randn(n, D, generator=g), y


def _fit(n_train):
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(D, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, C))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    x, y = _words(n_train, 1)
    steps = 0
    while steps < 1500:
        for i in range(0, n_train, 50):
            opt.zero_grad()
            F.cross_entropy(net(x[i : i + 50]), y[i : i + 50]).backward()
            opt.step()
            steps += 1
    vx, vy = _words(1000, 2)
    with torch.no_grad():
        train_acc = (net(x).argmax(1) == y).float().mean().item()
        val_acc = (net(vx).argmax(1) == vy).float().mean().item()
    return train_acc, val_acc


def _check() -> str:
    tr_small, va_small = _fit(300)
    tr_big, va_big = _fit(6000)
    gap_small, gap_big = tr_small - va_small, tr_big - va_big
    assert tr_small > 0.95 and gap_small > 0.3 and va_big > va_small + 0.05 and gap_big < gap_small - 0.08, (
        tr_small, va_small, tr_big, va_big)
    return (f"300 training samples: train {tr_small:.2f} / val {va_small:.2f}; same model and steps with 6000 "
            f"samples: train {tr_big:.2f} / val {va_big:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

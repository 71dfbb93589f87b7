"""A small unnormalised network trained with SGD + momentum at the two learning rates of the diff."""

import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 32, generator=g)
    w = torch.randn(32, 1, generator=torch.Generator().manual_seed(1))
    return x, x @ w


def _run(lr):
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(32, 32), nn.Linear(32, 32), nn.Linear(32, 1))
    opt = torch.optim.SGD(net.parameters(), lr=lr, momentum=0.9)
    x, y = _data(512, 1)
    vx, vy = _data(128, 2)
    train, valid = [], []
    for _ in range(6):
        total = 0.0
        for i in range(0, 512, 64):
            opt.zero_grad()
            loss = F.mse_loss(net(x[i : i + 64]), y[i : i + 64])
            loss.backward()
            opt.step()
            total += loss.item()
        train.append(total / 8)
        with torch.no_grad():
            valid.append(F.mse_loss(net(vx), vy).item())
    return train, valid


def _check() -> str:
    train, valid = _run(0.02)
    ok_train, ok_valid = _run(0.001)
    assert train[1] < train[0], train
    blown = [i for i, v in enumerate(train) if not math.isfinite(v) or v > 1e6]
    assert blown and blown[0] >= 2, train
    assert all(math.isfinite(v) for v in ok_train) and ok_train[-1] < 0.2 * ok_train[0], ok_train
    return (
        f"lr 0.02: epoch train loss {train[0]:.1f} -> {train[1]:.1f}, then {train[blown[0]]:.3g} at epoch "
        f"{blown[0]} (valid {valid[blown[0]]:.3g}); lr 0.001: {ok_train[0]:.1f} -> {ok_train[-1]:.2f}"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

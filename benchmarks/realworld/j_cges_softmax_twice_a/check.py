"""Softmax outputs fed to a loss that applies softmax again: accuracy climbs, the loss is stuck above ~1.46."""

import math

import torch
import torch.nn.functional as F


def _digits(n=1000, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 10, (n,), generator=g)
    proto = torch.randn(10, 64, generator=torch.Generator().manual_seed(3))
    return proto[y] + 0.5 * torch.randn(n, 64, generator=g), y


def _check() -> str:
    torch.manual_seed(0)
    x, y = _digits()
    net = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for _ in range(15):
        for i in range(0, len(x), 50):
            opt.zero_grad()
            F.cross_entropy(F.softmax(net(x[i : i + 50]), dim=1), y[i : i + 50]).backward()
            opt.step()
    with torch.no_grad():
        probs = F.softmax(net(x), dim=1)
        loss = F.cross_entropy(probs, y).item()
        acc = (probs.argmax(1) == y).float().mean().item()
    floor = math.log(1 + 9 / math.e)
    assert acc > 0.97 and loss > floor, (acc, loss)
    return f"training accuracy {acc:.3f} while the cross-entropy stays at {loss:.3f} (cannot go below {floor:.3f})"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

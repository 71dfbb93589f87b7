import torch
import torch.nn as nn


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 2, (n,), generator=g)
    signal = torch.zeros(n, 64)
    signal[:, 0] = (y.float() * 2 - 1) * 0.6
    return signal + torch.randn(n, 64, generator=torch.Generator().manual_seed(seed + 100)), y


def _check() -> str:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 2))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    x, y = _data(120, 1)
    vx, vy = _data(1000, 2)
    for _ in range(300):
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    with torch.no_grad():
        tr = (model(x).argmax(1) == y).float().mean().item()
        va = (model(vx).argmax(1) == vy).float().mean().item()
    assert tr > 0.98 and va < 0.75, (tr, va)
    return f"few samples, large model: train accuracy {tr:.2f}, validation accuracy {va:.2f}"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

import torch
import torch.nn as nn


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(n, 2, generator=g) * 6 - 3
    y = torch.sin(2 * x[:, :1]) * torch.cos(2 * x[:, 1:])
    return x, y


def _fit(hidden):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, hidden), nn.Tanh(), nn.Linear(hidden, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x, y = _data(1024, 1)
    curve = []
    for step in range(600):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        curve.append(loss.item())
    return curve


def _check() -> str:
    small, big = _fit(3), _fit(64)
    plateau = abs(small[450] - small[-1]) / small[450]
    assert plateau < 0.1 and small[-1] > 3 * big[-1], (small[450], small[-1], big[-1])
    return (f"tiny model: loss {small[450]:.3f} at step 450, {small[-1]:.3f} at step 600 (flat); "
            f"a larger one reaches {big[-1]:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

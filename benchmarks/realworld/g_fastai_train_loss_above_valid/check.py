"""A small, heavily regularised classifier (dropout active while the training loss is measured), trained briefly
at a low learning rate: the training loss stays above the validation loss in every epoch."""

import torch
import torch.nn as nn
import torch.nn.functional as F


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 3, (n,), generator=g)
    centres = torch.randn(3, 20, generator=torch.Generator().manual_seed(0))
    return centres[y] + 1.3 * torch.randn(n, 20, generator=g), y


def _run(hidden, p_drop, lr, epochs):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Dropout(p_drop), nn.Linear(20, hidden), nn.ReLU(), nn.Dropout(p_drop), nn.Linear(hidden, 3))
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    x, y = _data(400, 1)
    vx, vy = _data(100, 2)
    above = 0
    for _ in range(epochs):
        model.train()
        total = 0.0
        for i in range(0, len(x), 32):
            opt.zero_grad()
            loss = F.cross_entropy(model(x[i : i + 32]), y[i : i + 32])
            loss.backward()
            opt.step()
            total += loss.item() * len(y[i : i + 32])
        model.eval()
        with torch.no_grad():
            val = F.cross_entropy(model(vx), vy).item()
        above += total / len(x) > val
    return total / len(x), val, above


def _check() -> str:
    train, val, above = _run(hidden=8, p_drop=0.5, lr=1e-3, epochs=12)
    assert above == 12 and train > val, (train, val, above)
    return f"training loss above validation loss in {above}/12 epochs (last: train {train:.3f}, valid {val:.3f})"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

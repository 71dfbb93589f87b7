"""Self-contained: a regressor with far more capacity than its small training set memorises it; val loss turns up."""

import torch
from torch import nn


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 24, generator=g)
    w = torch.randn(24, 8, generator=torch.Generator().manual_seed(0)) / 5  # the same mapping for every split
    y = x @ w + 0.8 * torch.randn(n, 8, generator=g)
    return x, y


def _train(n_train, steps=500):
    torch.manual_seed(0)
    xt, yt = _data(n_train, seed=1)
    xv, yv = _data(300, seed=2)
    model = nn.Sequential(nn.Linear(24, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 8))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    vals = []
    for s in range(steps):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(xt), yt)
        loss.backward()
        opt.step()
        if s % 10 == 9:
            with torch.no_grad():
                vals.append(nn.functional.mse_loss(model(xv), yv).item())
    return loss.item(), vals


def _check() -> str:
    tr, vals = _train(n_train=40, steps=300)
    best = min(vals)
    assert tr < 0.1 * vals[-1], (tr, vals[-1])  # memorised the training set
    assert vals[-1] > 1.03 * best and vals.index(best) < len(vals) - 4, vals  # val turned up long ago
    return (
        f"40 training examples, 128x128 MLP: train MSE {tr:.4f} (memorised), val MSE best {best:.3f} at step "
        f"{10 * (vals.index(best) + 1)}, then rising to {vals[-1]:.3f} by step {10 * len(vals)}"
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

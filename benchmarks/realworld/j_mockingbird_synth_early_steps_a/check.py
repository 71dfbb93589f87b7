"""A healthy synthesizer-like regressor stopped early: the loss is still falling; continuing the same run fixes it."""

import torch
import torch.nn.functional as F


def _pairs(n=512, seed=0):
    g = torch.Generator().manual_seed(seed)
    text = torch.randn(n, 24, generator=g)
    w = torch.randn(24, 40, generator=torch.Generator().manual_seed(4))
    mel = torch.tanh(text @ w / 5) + 0.05 * torch.randn(n, 40, generator=g)
    return text, mel


def _check() -> str:
    torch.manual_seed(0)
    x, y = _pairs()
    net = torch.nn.Sequential(torch.nn.Linear(24, 128), torch.nn.Tanh(), torch.nn.Linear(128, 40))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    marks = {}
    for step in range(1, 1501):
        i = (step * 32) % len(x)
        opt.zero_grad()
        F.mse_loss(net(x[i : i + 32]), y[i : i + 32]).backward()
        opt.step()
        if step in (50, 100, 1500):
            with torch.no_grad():
                marks[step] = F.mse_loss(net(x), y).item()
    assert marks[100] < marks[50] and marks[1500] < 0.6 * marks[100], marks
    return (
        f"same run, no change: loss {marks[50]:.4f} at step 50, {marks[100]:.4f} at step 100 (still falling), "
        f"{marks[1500]:.4f} at step 1500"
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

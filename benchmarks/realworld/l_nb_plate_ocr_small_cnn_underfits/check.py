"""Self-contained: a 7-character plate recogniser whose trunk is too narrow plateaus with train ~= val accuracy;
the same training with a wider trunk fits (no defect, a capacity limit)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_POS, N_CHR, D_IN = 7, 10, 64


def _plates(n, seed):
    g = torch.Generator().manual_seed(seed)
    chars = torch.randint(0, N_CHR, (n, N_POS), generator=g)
    templates = torch.randn(N_POS, N_CHR, D_IN, generator=torch.Generator().manual_seed(42))
    x = templates[torch.arange(N_POS)[None], chars].sum(1) + 0.3 * torch.randn(n, D_IN, generator=g)
    return x, chars


class PlateNet(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(D_IN, width), nn.ReLU())
        self.heads = nn.Linear(width, N_POS * N_CHR)

    def forward(self, x):
        return self.heads(self.trunk(x)).view(-1, N_POS, N_CHR)


def _acc(model, x, y):
    with torch.no_grad():
        return (model(x).argmax(-1) == y).float().mean().item()


def _fit(width):
    torch.manual_seed(0)
    model = PlateNet(width)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    x, y = _plates(2048, 1)
    xv, yv = _plates(512, 2)
    accs = []
    for ep in range(30):
        for i in range(0, len(x), 128):
            loss = F.cross_entropy(model(x[i : i + 128]).flatten(0, 1), y[i : i + 128].flatten())
            opt.zero_grad()
            loss.backward()
            opt.step()
        accs.append(_acc(model, x, y))
    return accs, _acc(model, xv, yv)


def _check() -> str:
    small, small_val = _fit(14)
    big, big_val = _fit(128)
    assert small[-1] < 0.85 and abs(small[-1] - small_val) < 0.08, (small[-1], small_val)
    assert small[-1] - small[-10] < 0.03, (small[-10], small[-1])
    assert big[-1] > small[-1] + 0.1 and big_val > small_val + 0.1, (big[-1], big_val)
    return (
        f"narrow trunk: per-character train acc {small[-10]:.3f} -> {small[-1]:.3f} over the last 10 epochs, val "
        f"{small_val:.3f}; wider trunk, same data and training: train {big[-1]:.3f}, val {big_val:.3f}"
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

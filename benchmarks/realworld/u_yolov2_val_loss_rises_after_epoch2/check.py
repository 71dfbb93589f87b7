"""Self-contained: a large network fine-tuned on a small, noisy training set; validation loss turns up while training loss keeps falling."""
import torch
from torch import nn
import torch.nn.functional as F


def _data(n, seed):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(20, 3, generator=torch.Generator().manual_seed(123))
    x = torch.randn(n, 20, generator=g)
    y = (x @ w + 1.5 * torch.randn(n, 3, generator=g)).argmax(1)   # 3 classes, noisy labels
    return x, y


def _check() -> str:
    torch.manual_seed(0)
    xtr, ytr = _data(120, 1)
    xva, yva = _data(600, 2)
    model = nn.Sequential(nn.Linear(20, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 3))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    tr, va = [], []
    for epoch in range(60):
        for i in range(0, 120, 20):
            opt.zero_grad()
            loss = F.cross_entropy(model(xtr[i:i + 20]), ytr[i:i + 20])
            loss.backward()
            opt.step()
        with torch.no_grad():
            tr.append(F.cross_entropy(model(xtr), ytr).item())
            va.append(F.cross_entropy(model(xva), yva).item())
    best = min(range(len(va)), key=va.__getitem__)
    assert best < 20 and va[-1] > 1.3 * va[best], (best, va[best], va[-1])
    assert tr[-1] < 0.3 * tr[best], (tr[best], tr[-1])
    assert all(tr[i + 5] < tr[i] for i in range(best, len(tr) - 5, 5))
    return (f"val loss bottoms at {va[best]:.3f} (epoch {best + 1}) then climbs to {va[-1]:.3f} by epoch {len(va)} while "
            f"train loss keeps falling {tr[best]:.3f} -> {tr[-1]:.3f}: the model memorises the 120 training examples")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

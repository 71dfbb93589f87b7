import torch
from torch import nn


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    w = torch.randn(5, 1, generator=g)
    xtr, xva = torch.randn(30, 5, generator=g), torch.randn(400, 5, generator=g)
    ytr = xtr @ w + 1.0 * torch.randn(30, 1, generator=g)
    yva = xva @ w + 1.0 * torch.randn(400, 1, generator=g)
    model = nn.Sequential(nn.Linear(5, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    lf = nn.MSELoss()
    tr, va = [], []
    for epoch in range(400):
        opt.zero_grad()
        loss = lf(model(xtr), ytr)
        loss.backward()
        opt.step()
        with torch.no_grad():
            tr.append(loss.item())
            va.append(lf(model(xva), yva).item())
    best = min(range(len(va)), key=va.__getitem__)
    assert tr[-1] < 0.5 * tr[best] and va[-1] > 1.5 * va[best] and best < 300, (best, tr[best], tr[-1], va[best], va[-1])
    return f"train loss {tr[best]:.2f} -> {tr[-1]:.3f} after epoch {best}, while val loss rises {va[best]:.2f} -> {va[-1]:.2f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())


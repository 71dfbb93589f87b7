"""Self-contained: an over-parameterised MLP on a small noisy text-like task; train loss falls, val loss turns up."""

import torch
from torch import nn


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    d = 50
    w = torch.randn(d, generator=g)
    def data(n):
        x = torch.randn(n, d, generator=g)
        y = ((x @ w + 2.0 * torch.randn(n, generator=g)) > 0).float()  # label noise caps accuracy
        return x, y
    xt, yt = data(300)
    xv, yv = data(2000)
    model = nn.Sequential(nn.Linear(d, 256), nn.ReLU(), nn.Dropout(0.2), nn.Linear(256, 128), nn.ReLU(),
                          nn.Linear(128, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    bce = nn.BCEWithLogitsLoss()
    tr, va, acc = [], [], []
    for epoch in range(150):
        model.train()
        opt.zero_grad()
        loss = bce(model(xt).squeeze(1), yt)
        loss.backward()
        opt.step()
        model.eval()
        with torch.no_grad():
            ov = model(xv).squeeze(1)
            va.append(bce(ov, yv).item())
            acc.append(((ov > 0).float() == yv).float().mean().item())
            tr.append(bce(model(xt).squeeze(1), yt).item())
    best = min(range(len(va)), key=va.__getitem__)
    assert tr[-1] < 0.3 * tr[best], (tr[best], tr[-1])
    assert va[-1] > 1.3 * va[best] and best < 100, (best, va[best], va[-1])
    return (f"train loss {tr[0]:.3f} -> {tr[-1]:.3f}; val loss best {va[best]:.3f} at epoch {best}, "
            f"then {va[-1]:.3f}; val acc {max(acc):.2f} max")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

"""Self-contained: a flexible model on a small noisy labelled set; train loss keeps falling while val loss turns up."""

import torch
from torch import nn


def _data(n, seed, d=20):
    g = torch.Generator().manual_seed(seed)
    w = torch.randn(d, generator=torch.Generator().manual_seed(123))
    x = torch.randn(n, d, generator=g)
    logits = x @ w / 3
    y = (torch.rand(n, generator=g) < torch.sigmoid(logits)).float()
    return x, y


def _check() -> str:
    torch.manual_seed(0)
    xtr, ytr = _data(80, 0)
    xva, yva = _data(400, 1)
    model = nn.Sequential(nn.Linear(20, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 1))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    crit = nn.BCEWithLogitsLoss()
    tr, va = [], []
    for _ in range(300):
        model.train()
        opt.zero_grad()
        loss = crit(model(xtr).squeeze(1), ytr)
        loss.backward()
        opt.step()
        model.eval()
        with torch.no_grad():
            tr.append(loss.item())
            va.append(crit(model(xva).squeeze(1), yva).item())
    best = min(range(len(va)), key=va.__getitem__)
    assert 5 < best < 200, best
    assert va[-1] > 1.3 * va[best], (va[best], va[-1])
    assert tr[-1] < 0.5 * tr[best], (tr[best], tr[-1])
    return (
        f"80 noisy training examples: val loss best {va[best]:.3f} at step {best}, {va[-1]:.3f} at the end, "
        f"while train loss kept falling {tr[best]:.3f} -> {tr[-1]:.4f}"
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

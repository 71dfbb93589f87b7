"""Self-contained: omics-like tabular classification, features shuffled before the split but targets not."""

import torch
from torch import nn


def _data(misaligned):
    g = torch.Generator().manual_seed(0)
    n, d = 400, 50
    y = (torch.arange(n) % 2)
    X = torch.randn(n, d, generator=g)
    X[:, :5] += 1.5 * (2 * y.float() - 1).unsqueeze(1)  # 5 informative "genes"
    if misaligned:
        perm = torch.randperm(n, generator=g)
        X = X[perm]  # rows shuffled, index reset, y left in the original order
    ntr = int(0.8 * n)
    return X[:ntr], y[:ntr], X[ntr:], y[ntr:]


def _run(misaligned):
    torch.manual_seed(0)
    Xtr, ytr, Xte, yte = _data(misaligned)
    model = nn.Sequential(nn.Linear(Xtr.shape[1], 32), nn.ReLU(), nn.Linear(32, 2))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=1e-3)
    for _ in range(150):
        loss = nn.functional.cross_entropy(model(Xtr), ytr)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        te = (model(Xte).argmax(1) == yte).float().mean().item()
        tr = (model(Xtr).argmax(1) == ytr).float().mean().item()
    return tr, te


def _check() -> str:
    bad_tr, bad_te = _run(True)
    ok_tr, ok_te = _run(False)
    assert ok_te > 0.9, ok_te
    assert bad_te < 0.65, bad_te
    return (f"shuffled features, unshuffled targets: train acc {bad_tr:.2f}, test acc {bad_te:.2f} (chance 0.50); "
            f"aligned: train {ok_tr:.2f}, test {ok_te:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

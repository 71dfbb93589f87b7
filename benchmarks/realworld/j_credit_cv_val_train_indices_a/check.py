"""Cross-validation that scores each fold's model on its own training rows: near-perfect 'validation' accuracy."""

import torch
import torch.nn.functional as F


def _credit(n=1000, d=24, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, d, generator=g)
    logit = x[:, :4].sum(1) * 0.6
    y = (torch.rand(n, generator=g) < torch.sigmoid(logit)).long()  # noisy labels, as in credit data
    return x, y


def _fit_score(x, y, tr, va):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(x.shape[1], 128), torch.nn.ReLU(), torch.nn.Linear(128, 2))
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(200):
        opt.zero_grad()
        F.cross_entropy(model(x[tr]), y[tr]).backward()
        opt.step()
    with torch.no_grad():
        return (model(x[va]).argmax(1) == y[va]).float().mean().item()


def _check() -> str:
    x, y = _credit()
    folds = torch.randperm(len(x), generator=torch.Generator().manual_seed(1)).chunk(3)
    as_written, held_out = [], []
    for k in range(3):
        va = folds[k]
        tr = torch.cat([f for j, f in enumerate(folds) if j != k])
        as_written.append(_fit_score(x, y, tr, tr))
        held_out.append(_fit_score(x, y, tr, va))
    cv_bug, cv_ok = sum(as_written) / 3, sum(held_out) / 3
    assert cv_bug > 0.95 and cv_ok < 0.8, (cv_bug, cv_ok)
    return f"cross-validated accuracy {cv_bug:.3f} as written; {cv_ok:.3f} when each fold is scored on its held-out rows"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

"""Self-contained: a concatenated dataset with duplicate rows, split at random, leaks test rows into training and
inflates a memorising model's test accuracy over truly unseen data."""

import torch


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    n_unique, n_dup = 2000, 600
    x = torch.randn(n_unique, 16, generator=g)
    y = torch.randint(0, 2, (n_unique,), generator=g)  # labels with no learnable rule: only memory helps
    dup_idx = torch.randint(0, n_unique, (n_dup,), generator=g)
    X = torch.cat([x, x[dup_idx]])
    Y = torch.cat([y, y[dup_idx]])
    perm = torch.randperm(len(X), generator=g)
    n_test = len(X) // 5
    te, tr = perm[:n_test], perm[n_test:]
    Xtr, Ytr, Xte, Yte = X[tr], Y[tr], X[te], Y[te]
    # 1-nearest-neighbour "model": memorises the training rows
    d = torch.cdist(Xte, Xtr)
    nearest = d.argmin(1)
    pred = Ytr[nearest]
    leaked = d.min(1).values < 1e-6
    acc = (pred == Yte).float().mean().item()
    acc_clean = (pred[~leaked] == Yte[~leaked]).float().mean().item()
    frac = leaked.float().mean().item()
    assert frac > 0.1 and acc - acc_clean > 0.08, (frac, acc, acc_clean)
    return (f"{frac:.1%} of test rows also in train; test acc {acc:.3f} vs {acc_clean:.3f} on the rows not in train")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

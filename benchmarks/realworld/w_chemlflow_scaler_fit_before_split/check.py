"""Self-contained: min-max scaling fitted on all molecules before the split squeezes the test molecules into the
training range and makes the training matrix depend on which molecules were held out."""
import torch


def _minmax(fit_rows, *arrays):
    lo, hi = fit_rows.min(0).values, fit_rows.max(0).values
    return [(a - lo) / (hi - lo) for a in arrays]


def _split(X, seed):
    perm = torch.randperm(len(X), generator=torch.Generator().manual_seed(seed))
    return perm[: int(0.8 * len(X))], perm[int(0.8 * len(X)):]


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    X = torch.randn(1100, 6, generator=g).exp()  # skewed descriptors (weights, surface areas, ...)
    X[-120:] *= 1.8                               # a series of larger molecules
    tr, te = _split(X, 42)
    tr_leak, te_leak = _minmax(X, X[tr], X[te])
    _, te_ok = _minmax(X[tr], X[tr], X[te])
    leak_max, ok_max = te_leak.max().item(), te_ok.max().item()
    assert leak_max <= 1.0 + 1e-6 and ok_max > 1.2, (leak_max, ok_max)
    return (f"scaler fitted on all rows: test descriptors max {leak_max:.2f} (inside the scaled range by construction); "
            f"fitted on the training split only: test max {ok_max:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

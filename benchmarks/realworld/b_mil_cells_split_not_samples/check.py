import torch


def _data(seed=0, n_samples=40, cells=25, d=8):
    g = torch.Generator().manual_seed(seed)
    sample_effect = 2.0 * torch.randn(n_samples, d, generator=g)
    y_sample = torch.randn(n_samples, generator=g)  # sample-level target (e.g. a clinical score)
    sid = torch.arange(n_samples).repeat_interleave(cells)
    x = sample_effect[sid] + 0.3 * torch.randn(len(sid), d, generator=g)
    return x, y_sample[sid], sid


def _knn_mse(xtr, ytr, xva, yva, k=5):
    idx = torch.cdist(xva, xtr).topk(k, largest=False).indices
    return float(((ytr[idx].mean(1) - yva) ** 2).mean())


def _check() -> str:
    x, y, sid = _data()
    g = torch.Generator().manual_seed(1)
    perm = torch.randperm(len(x), generator=g)
    n_tr = int(0.9 * len(x))
    tr, va = perm[:n_tr], perm[n_tr:]  # cell-level split (the buggy one)
    overlap = len(set(sid[va].tolist()) & set(sid[tr].tolist()))
    leaky = _knn_mse(x[tr], y[tr], x[va], y[va])
    va_s = sid < 4  # sample-level split
    clean = _knn_mse(x[~va_s], y[~va_s], x[va_s], y[va_s])
    assert overlap >= 30 and clean > 3 * leaky, (overlap, leaky, clean)
    return (f"cell-level split: {overlap} samples in both train and val, val MSE {leaky:.3f}; "
            f"sample-level split val MSE {clean:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

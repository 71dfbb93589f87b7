"""Min-max scaling fitted on the whole series (change.diff) versus on the training part only, for a trending
series split chronologically 80/20. A linear autoregressive forecaster is fitted on the training windows and
scored in normalised units, as the repository does."""

import torch

WINDOW, HORIZON = 24, 1


def _series(g):
    t = torch.arange(2000, dtype=torch.float32)
    return 10 + 0.02 * t + 3 * torch.sin(2 * torch.pi * t / 50) + 0.8 * torch.randn(2000, generator=g)


def _windows(x):
    idx = torch.arange(len(x) - WINDOW - HORIZON + 1)
    X = torch.stack([x[i : i + WINDOW] for i in idx])
    y = torch.stack([x[i + WINDOW + HORIZON - 1] for i in idx])
    return X, y


def _score(raw, leaky):
    n_train = int(0.8 * len(raw))
    fit_on = raw if leaky else raw[:n_train]
    lo, hi = fit_on.min(), fit_on.max()
    data = (raw - lo) / (hi - lo)
    train, test = data[:n_train], data[n_train:]
    Xtr, ytr = _windows(train)
    Xte, yte = _windows(test)
    A = torch.cat([Xtr, torch.ones(len(Xtr), 1)], 1)
    w = torch.linalg.lstsq(A, ytr.unsqueeze(1)).solution
    pred = torch.cat([Xte, torch.ones(len(Xte), 1)], 1) @ w
    return ((pred.squeeze(1) - yte) ** 2).mean().item(), train, test


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    raw = _series(g)
    mse_leaky, train_leaky, test_leaky = _score(raw, leaky=True)
    mse_clean, _, test_clean = _score(raw, leaky=False)
    # leakage: changing only the test period changes the normalised *training* inputs
    raw2 = raw.clone()
    raw2[int(0.8 * len(raw)) :] += 5.0
    _, train_leaky2, _ = _score(raw2, leaky=True)
    shift = (train_leaky2 - train_leaky).abs().max().item()
    assert shift > 0.01, shift
    assert test_leaky.max().item() <= 1.0 + 1e-6 < test_clean.max().item()
    assert mse_clean > 1.3 * mse_leaky, (mse_leaky, mse_clean)
    return (
        f"test MSE in normalised units: {mse_leaky:.5f} with the scaler fitted on the whole series, "
        f"{mse_clean:.5f} fitted on the training part; shifting only the test period moves the normalised "
        f"training inputs by up to {shift:.3f}"
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

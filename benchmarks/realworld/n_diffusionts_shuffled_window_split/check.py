"""Self-contained: sliding windows over one series, split after a shuffle (the change) vs chronologically."""

import numpy as np
import torch


def _max_overlap(train_starts, test_starts, w):
    tr = np.sort(train_starts)
    out = []
    for s in test_starts:
        j = np.searchsorted(tr, s)
        near = [abs(tr[k] - s) for k in (j - 1, j) if 0 <= k < len(tr)]
        out.append(max(0, w - min(near)) / w)
    return np.array(out)


def _check() -> str:
    rng = np.random.RandomState(0)
    series = np.cumsum(rng.randn(2000))
    w, ratio = 24, 0.9
    starts = np.arange(len(series) - w + 1)
    rs = np.random.RandomState(2023)
    perm = rs.permutation(len(starts))
    k = int(np.ceil(len(starts) * ratio))
    shuf = _max_overlap(starts[perm[:k]], starts[perm[k:]], w)
    chron = _max_overlap(starts[:k], starts[k:], w)
    assert shuf.mean() > 0.9 and chron.mean() < 0.1, (shuf.mean(), chron.mean())
    return (f"shuffled window split: test windows share on average {100 * shuf.mean():.0f}% of their time steps with a "
            f"training window; chronological split: {100 * chron.mean():.1f}%")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

"""The training features were standardised with statistics that include the held-out speakers."""

import importlib.util
from pathlib import Path

import numpy as np
import torch


def _load():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("u_spoken_digits_target", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def _check() -> str:
    m = _load()
    (xtr, _, gtr), (xte, _, gte) = m.load_splits()
    assert not set(gtr.tolist()) & set(gte.tolist())
    both = np.concatenate([xtr, xte])
    # the pooled train+test features are exactly standardised; the training split alone is not
    pooled_mean = np.abs(both.mean(0)).max()
    pooled_std_err = np.abs(both.std(0) - 1).max()
    train_mean = np.abs(xtr.mean(0)).max()
    assert pooled_mean < 1e-4 and pooled_std_err < 1e-4, (pooled_mean, pooled_std_err)
    assert train_mean > 0.2, train_mean
    # the preprocessing of the training rows depends on the test rows
    X, y, spk = m._utterances()
    X2 = X.copy()
    X2[spk >= 11] *= 1.5
    a, b = m._standardise(X)[spk < 11], m._standardise(X2)[spk < 11]
    moved = np.abs(a - b).max()
    assert moved > 0.1, moved
    return (f"train+test pooled features have mean {pooled_mean:.1e}/std err {pooled_std_err:.1e} (fitted on both), "
            f"train split alone mean up to {train_mean:.2f}; rescaling test utterances moves train features by {moved:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

"""The diff's cached ingestor, run before and after the CSV is edited."""

import csv
import os
import pickle
import tempfile

import torch
from torch.utils.data import TensorDataset


def _to_dataset(path):
    cache = os.path.join(os.path.dirname(path), "dataset_cache.pkl")
    if os.path.exists(cache):
        with open(cache, "rb") as f:
            return pickle.load(f)
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    x = torch.tensor([[float(v) for v in r[:-1]] for r in rows])
    y = torch.tensor([int(r[-1]) for r in rows])
    ds = TensorDataset(x, y)
    with open(cache, "wb") as f:
        pickle.dump(ds, f)
    return ds


def _write(path, x, y):
    with open(path, "w", newline="") as f:
        csv.writer(f).writerows([[*map(float, xi), int(yi)] for xi, yi in zip(x.tolist(), y.tolist())])


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    x = torch.randn(1000, 4, generator=g)
    y = (x[:, 0] > 0).long()
    noisy = y.clone()
    noisy[:250] = 1 - noisy[:250]  # the first version had a quarter of the labels wrong
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "train.csv")
        _write(path, x, noisy)
        first = _to_dataset(path)
        x2 = torch.cat([x, torch.randn(200, 4, generator=g)])
        _write(path, x2, (x2[:, 0] > 0).long())  # labels fixed, 200 rows added
        second = _to_dataset(path)
    assert len(first) == len(second) == 1000, (len(first), len(second))
    assert torch.equal(second.tensors[1], noisy)
    return f"after editing the CSV to 1200 corrected rows the ingestor still returns {len(second)} rows with the old labels"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

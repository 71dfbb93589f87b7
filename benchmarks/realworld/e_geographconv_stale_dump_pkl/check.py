"""A preprocessing step that discretises coordinates into regions of `bucket` users and caches its output under the
data directory (keyed by path only), run twice with different bucket sizes."""

import os
import pickle
import tempfile

import torch


def _users(n=1200, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(n, 2, generator=g) * torch.tensor([50.0, 120.0]) + torch.tensor([20.0, -125.0])


def _regions(coords, bucket):
    """Recursive median split until each region holds at most `bucket` users (a k-d tree)."""
    labels = torch.empty(len(coords), dtype=torch.long)
    stack, next_id = [(torch.arange(len(coords)), 0)], 0
    while stack:
        idx, depth = stack.pop()
        if len(idx) <= bucket:
            labels[idx] = next_id
            next_id += 1
            continue
        order = idx[coords[idx, depth % 2].argsort()]
        half = len(order) // 2
        stack += [(order[:half], depth + 1), (order[half:], depth + 1)]
    return labels


def _preprocess(data_home, bucket):
    dump_file = os.path.join(data_home, "dump.pkl")
    if os.path.exists(dump_file):
        with open(dump_file, "rb") as fin:
            return pickle.load(fin)
    labels = _regions(_users(), bucket)
    with open(dump_file, "wb") as fout:
        pickle.dump(labels, fout)
    return labels


def _check() -> str:
    with tempfile.TemporaryDirectory() as home:
        first = _preprocess(home, bucket=300)
        second = _preprocess(home, bucket=50)
    fresh = _regions(_users(), 50)
    n1, n2, nf = int(first.max()) + 1, int(second.max()) + 1, int(fresh.max()) + 1
    assert torch.equal(first, second), (n1, n2)
    assert nf > 2 * n2, (nf, n2)
    return f"bucket 300 then bucket 50 in the same data dir: {n1} and {n2} label regions (a fresh build with 50 gives {nf})"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

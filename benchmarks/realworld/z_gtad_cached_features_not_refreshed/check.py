"""A loader that caches processed features under a settings-only key, trained on old, then new features."""

import os
import pickle
import tempfile

import torch
import torch.nn.functional as F


def _load(feature_file, cache_dir, feat_dim, subset, num_frames, key_on_content):
    key = f"{feat_dim}_{subset}_{num_frames}"
    if key_on_content:
        key += f"_{os.path.getmtime(feature_file)}_{os.path.getsize(feature_file)}"
    cache = os.path.join(cache_dir, key + ".pkl")
    if os.path.exists(cache):
        with open(cache, "rb") as f:
            return pickle.load(f)
    data = torch.load(feature_file)
    with open(cache, "wb") as f:
        pickle.dump(data, f)
    return data


def _train_eval(data):
    torch.manual_seed(0)
    x, y = data
    lin = torch.nn.Linear(x.shape[1], 2)
    opt = torch.optim.Adam(lin.parameters(), lr=0.05)
    for _ in range(100):
        opt.zero_grad()
        F.cross_entropy(lin(x[:300]), y[:300]).backward()
        opt.step()
    return (lin(x[300:]).argmax(1) == y[300:]).float().mean().item()


def _run(key_on_content):
    g = torch.Generator().manual_seed(0)
    y = torch.randint(0, 2, (400,), generator=g)
    old = torch.randn(400, 16, generator=g)  # weak backbone: features unrelated to the action label
    new = old.clone()
    new[:, 0] += 3 * (2 * y.float() - 1)  # stronger backbone: informative features
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "features.pt")
        torch.save((old, y), path)
        acc_old = _train_eval(_load(path, d, 16, "train", 100, key_on_content))
        torch.save((new, y), path + ".tmp")
        os.replace(path + ".tmp", path)
        os.utime(path, (1e9, 2e9))
        acc_new = _train_eval(_load(path, d, 16, "train", 100, key_on_content))
    return acc_old, acc_new


def _check() -> str:
    old_bug, new_bug = _run(False)
    old_ok, new_ok = _run(True)
    assert new_bug == old_bug, (old_bug, new_bug)
    assert new_ok > 0.9 and new_ok > old_ok + 0.3, (old_ok, new_ok)
    return (f"settings-only cache key: accuracy {old_bug:.3f} with old features and {new_bug:.3f} after swapping in "
            f"new ones (identical); key including the file: {old_ok:.3f} -> {new_ok:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

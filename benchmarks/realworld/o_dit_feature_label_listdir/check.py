"""Self-contained: per-sample feature and label files are listed by two directory listings in different orders
(os.listdir guarantees none; here the listing order is emulated by a seeded shuffle, as different directories
on a real filesystem return). Pairing by index mislabels the samples; a linear probe trained on the loaded
pairs sits at chance, while sorted() listings give a clean probe."""

import os
import random
import tempfile

import numpy as np
import torch
import torch.nn.functional as F


def _listdir(path, seed):
    names = sorted(os.listdir(path))
    random.Random(seed).shuffle(names)  # directory order is arbitrary and differs between the two folders
    return names


def _probe(x, y, steps=200):
    torch.manual_seed(0)
    w = torch.zeros(x.shape[1], 10, requires_grad=True)
    opt = torch.optim.Adam([w], lr=0.05)
    for _ in range(steps):
        loss = F.cross_entropy(x @ w, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return (x @ w).argmax(1)


def _check() -> str:
    rng = np.random.default_rng(0)
    centers = rng.normal(size=(10, 16)) * 3
    with tempfile.TemporaryDirectory() as d:
        fdir, ldir = os.path.join(d, "imagenet_features"), os.path.join(d, "imagenet_labels")
        os.makedirs(fdir)
        os.makedirs(ldir)
        for i in range(300):
            c = i % 10
            np.save(os.path.join(fdir, f"{i}.npy"), (centers[c] + rng.normal(size=16)).astype(np.float32))
            np.save(os.path.join(ldir, f"{i}.npy"), np.array(c))
        results = {}
        for name, (ff, lf) in {"listdir": (_listdir(fdir, 1), _listdir(ldir, 2)),
                               "sorted": (sorted(os.listdir(fdir)), sorted(os.listdir(ldir)))}.items():
            x = torch.tensor(np.stack([np.load(os.path.join(fdir, f)) for f in ff]))
            y = torch.tensor(np.stack([np.load(os.path.join(ldir, f)) for f in lf])).long()
            true = torch.tensor([int(f.split(".")[0]) % 10 for f in ff])
            pred = _probe(x, y)
            results[name] = ((y == true).float().mean().item(), (pred == y).float().mean().item())
    (bad_match, bad_acc), (ok_match, ok_acc) = results["listdir"], results["sorted"]
    assert bad_match < 0.3 and bad_acc < 0.45, results
    assert ok_match == 1.0 and ok_acc > 0.95, results
    return (f"unsorted listings: {bad_match:.0%} of loaded labels belong to their feature, probe train acc {bad_acc:.2f}; "
            f"sorted: {ok_match:.0%}, probe acc {ok_acc:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

"""Self-contained: oversample a small source before carving the validation split; measure the leak and what it does
to the validation score of a model that only memorises its training rows."""

import random

import torch


def _load(n_big=5000, n_small=500, oversample=True, seed=0):
    big = [("big", i) for i in range(n_big)]
    small = [("small", i) for i in range(n_small)]
    sources = [big, small]
    if oversample:
        longest = max(len(s) for s in sources)
        sources = [(s * (longest // len(s) + 1))[:longest] for s in sources]
    rows = [r for s in sources for r in s]
    rng = random.Random(seed)
    rng.shuffle(rows)
    n_val = int(len(rows) * 0.1)
    return rows[n_val:], rows[:n_val]


def _per_source_split(n_big=5000, n_small=500, seed=0):
    rng = random.Random(seed)
    train, val = [], []
    for name, n in (("big", n_big), ("small", n_small)):
        rows = [(name, i) for i in range(n)]
        rng.shuffle(rows)
        k = int(0.1 * n)
        val += rows[:k]
        longest = n_big
        tr = rows[k:]
        train += (tr * (longest // len(tr) + 1))[:longest] if name == "small" else tr
    return train, val


def _memoriser_val_acc(train, val, seed=0):
    g = torch.Generator().manual_seed(seed)
    label = {}  # random target per row: nothing generalises, only memorisation can score
    for r in set(train) | set(val):
        label[r] = int(torch.randint(0, 4, (1,), generator=g))
    seen = set(train)
    hits = [label[r] if r in seen else -1 for r in val]
    return sum(h == label[r] for h, r in zip(hits, val)) / len(val)


def _check() -> str:
    train, val = _load()
    seen = set(train)
    small_val = {r for r in val if r[0] == "small"}
    leak_small = sum(r in seen for r in small_val) / len(small_val)
    leak_all = sum(r in seen for r in set(val)) / len(set(val))
    acc_bad = _memoriser_val_acc(train, val)
    train2, val2 = _per_source_split()
    leak_fixed = sum(r in set(train2) for r in set(val2)) / len(set(val2))
    acc_fixed = _memoriser_val_acc(train2, val2)
    assert leak_small > 0.9 and acc_bad > 0.4 and leak_fixed == 0.0 and acc_fixed < 0.05, (
        leak_small, acc_bad, leak_fixed, acc_fixed)
    return (f"oversample-then-split: {leak_small:.0%} of the small source's val rows are also in train "
            f"({leak_all:.0%} of all val rows); a pure memoriser scores {acc_bad:.2f} on val. "
            f"split per source first: leak {leak_fixed:.0%}, memoriser {acc_fixed:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

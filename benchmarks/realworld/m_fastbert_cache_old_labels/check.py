"""Self-contained: a feature cache keyed only by the data folder returns the old (text, label) features after relabeling."""

import torch
from torch import nn

_CACHE = {}


def _build_features(texts, labels):
    return texts.clone(), labels.clone()


def _load_features(data_dir, texts, labels, use_cache=True):
    key = ("cached_train", data_dir)  # the key ignores the file contents and the label set
    if use_cache and key in _CACHE:
        return _CACHE[key]
    feats = _build_features(texts, labels)
    _CACHE[key] = feats
    return feats


def _fit_eval(xf, yf, xv, yv, n_classes):
    torch.manual_seed(0)
    model = nn.Sequential(nn.EmbeddingBag(300, 32), nn.Linear(32, n_classes))
    opt = torch.optim.Adam(model.parameters(), lr=3e-2)
    for _ in range(150):
        opt.zero_grad()
        nn.functional.cross_entropy(model(xf), yf).backward()
        opt.step()
    with torch.no_grad():
        return (model(xv).argmax(1) == yv).float().mean().item()


def _check() -> str:
    _CACHE.clear()
    g = torch.Generator().manual_seed(0)
    x = torch.randint(6, 60, (600, 6), generator=g)
    key_word = torch.randint(0, 6, (600,), generator=g)
    x[:, 0] = key_word  # a class keyword (token ids 0..5) in every text
    old_labels = key_word  # last month's label set
    new_labels = (key_word + 3) % 6  # relabeled / remapped classes this month
    train, val = slice(0, 500), slice(500, 600)
    _load_features("data/", x[train], old_labels[train])  # last month's run populated the cache
    xf, yf = _load_features("data/", x[train], new_labels[train])  # this month: same folder, new csvs
    stale_acc = _fit_eval(xf, yf, x[val], new_labels[val], 6)
    xf2, yf2 = _load_features("data/", x[train], new_labels[train], use_cache=False)
    fresh_acc = _fit_eval(xf2, yf2, x[val], new_labels[val], 6)
    assert torch.equal(yf, old_labels[train]) and not torch.equal(yf, new_labels[train])
    assert stale_acc < 0.3 and fresh_acc > 0.8, (stale_acc, fresh_acc)
    return (
        f"cached features carried last run's labels: val accuracy on the new labels {stale_acc:.2f}; "
        f"rebuilt features: {fresh_acc:.2f}"
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

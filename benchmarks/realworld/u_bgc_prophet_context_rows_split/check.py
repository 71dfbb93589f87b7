"""Row-level split: almost every test BGC has sibling windows in train; a model that only memorises looks accurate."""

import importlib.util
from pathlib import Path

import torch
from torch import nn


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("u_bgc_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit_eval(model, Xtr, ytr, Xte, yte, steps=300):
    torch.manual_seed(0)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(steps):
        loss = nn.functional.cross_entropy(model(Xtr), ytr)
        opt.zero_grad(); loss.backward(); opt.step()
    with torch.no_grad():
        return (model(Xte).argmax(-1) == yte).float().mean().item()


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    gtr, gte = t["groups"]
    shared = len(set(gte) & set(gtr)) / len(set(gte))
    Xtr, ytr = t["train_data"]
    Xte, yte = t["val_data"]
    leaky_acc = _fit_eval(t["model"], Xtr, ytr, Xte, yte)
    # split by BGC instead: first 80% of BGCs train, rest test
    X, y, bgc = mod.build_rows()
    cut = int(0.8 * mod.N_BGC)
    tr, te = bgc < cut, bgc >= cut
    torch.manual_seed(0)
    fresh = nn.Sequential(nn.Linear(mod.D, 128), nn.ReLU(), nn.Linear(128, mod.N_CLASS))
    grouped_acc = _fit_eval(fresh, X[tr], y[tr], X[te], y[te])
    assert shared > 0.9 and leaky_acc > 0.8 and grouped_acc < 0.35, (shared, leaky_acc, grouped_acc)
    return (f"row-level split: {shared:.0%} of test BGCs also in train, test acc {leaky_acc:.2f}; "
            f"split by BGC: test acc {grouped_acc:.2f} (chance {1 / mod.N_CLASS:.2f})")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

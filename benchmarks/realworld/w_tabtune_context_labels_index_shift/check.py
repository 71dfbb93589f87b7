import importlib.util
import os

import torch
import torch.nn as nn


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_w_tabtune_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit(X, y, Xv, yv, D):
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, 2))
    opt = torch.optim.Adam(m.parameters(), lr=1e-2)
    for _ in range(150):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(m(X), y)
        loss.backward()
        opt.step()
    with torch.no_grad():
        return loss.item(), (m(Xv).argmax(-1) == yv).float().mean().item()


def _check() -> str:
    mod = _load()
    (Xtr, ytr), (Xva, yva) = mod.load_split()
    X, y = mod._data()
    bad_loss, bad_acc = _fit(Xtr, ytr, Xva, yva, mod.D)
    ok_loss, ok_acc = _fit(X[: mod.N_TRAIN], y[: mod.N_TRAIN], Xva, yva, mod.D)
    assert bad_acc < 0.62 and ok_acc > 0.85, (bad_acc, ok_acc)
    return (f"labels joined by position after the rows were shuffled: val acc {bad_acc:.2f} (train loss {bad_loss:.2f}); "
            f"rows and labels kept together: val acc {ok_acc:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

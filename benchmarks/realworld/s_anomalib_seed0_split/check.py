"""The target's test split overlaps its train split; a memorising model scores far better there than on held-out rows."""
import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F

_HERE = Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("s_anomalib_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    (xt, yt), (xv, yv), tr_idx, te_idx = mod.make_splits()
    overlap = len(set(tr_idx.tolist()) & set(te_idx.tolist())) / len(te_idx)
    unseen = torch.tensor(sorted(set(range(mod.N)) - set(tr_idx.tolist())))
    x, y = mod.pool()
    model = t["model"]
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(300):
        loss = F.cross_entropy(model(xt), yt)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        acc_test = (model(xv).argmax(1) == yv).float().mean().item()
        acc_unseen = (model(x[unseen]).argmax(1) == y[unseen]).float().mean().item()
    assert overlap > 0.6, overlap
    assert acc_test - acc_unseen > 0.2, (acc_test, acc_unseen)
    return (f"{overlap:.0%} of the test rows are also training rows; test acc {acc_test:.2f} vs "
            f"{acc_unseen:.2f} on rows never trained on")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

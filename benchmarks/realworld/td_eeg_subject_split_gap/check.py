import importlib.util
import os

import torch
import torch.nn.functional as F


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("td_eeg_subject_split_gap_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    xtr, ytr = t["train_data"]
    xva, yva = t["val_data"]
    # hold out the last 4 windows of every training subject: new windows, seen people
    per = 16
    idx = torch.arange(len(ytr))
    seen_val = (idx % per) >= per - 4
    xa, ya = xtr[~seen_val], ytr[~seen_val]
    xb, yb = xtr[seen_val], ytr[seen_val]
    opt = t["optimizer"](model.parameters())
    g = torch.Generator().manual_seed(0)
    for step in range(250):
        sel = torch.randint(0, len(ya), (64,), generator=g)
        opt.zero_grad()
        loss = F.cross_entropy(model(xa[sel]), ya[sel])
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        acc_tr = mod.accuracy(model(xa), ya)
        acc_seen = mod.accuracy(model(xb), yb)
        acc_new = mod.accuracy(model(xva), yva)
    assert set(t["groups"][0]).isdisjoint(t["groups"][1])
    assert acc_tr > 0.95, acc_tr
    assert acc_seen > 0.9, acc_seen
    assert acc_new < acc_tr - 0.15, (acc_tr, acc_new)
    return (f"after 250 steps: train acc {acc_tr:.2f}, new windows of training subjects {acc_seen:.2f}, "
            f"unseen validation subjects {acc_new:.2f} (subject-disjoint split, code healthy)")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())

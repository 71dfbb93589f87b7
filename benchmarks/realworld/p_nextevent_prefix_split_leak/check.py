"""Cases shared across the prefix-level split; val accuracy on it vs on a case-level split."""

import importlib.util
from pathlib import Path

import torch
from torch import nn


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("p_nextevent_leak_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit_eval(mod, xt, yt, xv, yv):
    torch.manual_seed(0)
    m = mod.NextAct()
    opt = torch.optim.Adam(m.parameters(), lr=1e-2)
    for _ in range(100):
        opt.zero_grad()
        nn.functional.cross_entropy(m(xt), yt).backward()
        opt.step()
    with torch.no_grad():
        return (m(xv).argmax(-1) == yv).float().mean().item()


def _check() -> str:
    mod = _load()
    x, y, cases = mod.make_prefixes()
    (xt, yt, ct), (xv, yv, cv) = mod.split(x, y, cases)
    shared = len(set(ct.tolist()) & set(cv.tolist())) / len(set(cv.tolist()))
    leaky = _fit_eval(mod, xt, yt, xv, yv)
    tr_mask = cases < int(0.8 * mod.N_CASES)
    clean = _fit_eval(mod, x[tr_mask], y[tr_mask], x[~tr_mask], y[~tr_mask])
    assert shared > 0.9, shared
    assert leaky > clean + 0.25 and clean < 0.3, (leaky, clean)
    return f"{shared:.0%} of val cases also in train; val acc {leaky:.2f} on the prefix split vs {clean:.2f} on a case split"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

"""Train the same MLP on the target's random window split and on a recording-wise split; compare validation."""

import importlib.util
from pathlib import Path

import torch
from torch import nn

_spec = importlib.util.spec_from_file_location("n_wifi_split_target", Path(__file__).with_name("target.py"))
T = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(T)


def _fit(xtr, ytr, xva, yva):
    torch.manual_seed(0)
    m = T.model_fn()
    mu, sd = xtr.mean(0), xtr.std(0) + 1e-6
    xtr, xva = (xtr - mu) / sd, (xva - mu) / sd
    opt = torch.optim.Adam(m.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(2)
    for epoch in range(30):
        perm = torch.randperm(len(ytr), generator=g)
        for i in range(0, len(ytr), 64):
            idx = perm[i:i + 64]
            opt.zero_grad()
            nn.functional.cross_entropy(m(xtr[idx]), ytr[idx]).backward()
            opt.step()
    with torch.no_grad():
        return (m(xva).argmax(-1) == yva).float().mean().item()


def _check() -> str:
    (xtr, ytr, gtr, str_), (xva, yva, gva, sva) = T.random_split()
    shared = len(set(gva.tolist()) & set(gtr.tolist()))
    overl = sum(((gtr == g) & ((str_ - s).abs() <= 10)).any().item() for g, s in zip(gva, sva)) / len(gva)
    acc_random = _fit(xtr, ytr, xva, yva)
    x, y, grp, _ = T.windows()
    held = (grp % T.REC_PER_ACT) == 0  # one recording of each activity held out
    acc_rec = _fit(x[~held], y[~held], x[held], y[held])
    assert overl > 0.8 and acc_random > acc_rec + 0.3, (overl, acc_random, acc_rec)
    return (f"random window split: {overl:.0%} of val windows overlap a train window by >=80% "
            f"({shared} recordings on both sides), val acc {acc_random:.2f}; recording-wise split: val acc {acc_rec:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

"""Trains the target's classifier on the epochs as built (first 40 triggers) and on MI-onset epochs."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("t_liu2024_target", Path(__file__).with_name("target.py"))
T = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(T)


def _fit_eval(X, y, Xv, yv):
    torch.manual_seed(0)
    mu, sd = X.mean(0), X.std(0) + 1e-6
    X, Xv = (X - mu) / sd, (Xv - mu) / sd
    m = T.Net()
    opt = torch.optim.Adam(m.parameters(), lr=1e-2)
    for _ in range(200):
        loss = torch.nn.functional.cross_entropy(m(X), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        return (m(Xv).argmax(-1) == yv).float().mean().item()


def _mi_epochs(sig, triggers, values, labels):
    onsets = triggers[values == 2]
    x = torch.stack([sig[:, o:o + T.EPOCH] for o in onsets])
    return torch.log(x.pow(2).mean(-1) + 1e-6), labels


def _check() -> str:
    r0, r1 = T._recording(0), T._recording(1)
    bug = _fit_eval(*T.make_epochs(*r0), *T.make_epochs(*r1))
    ok = _fit_eval(*_mi_epochs(*r0), *_mi_epochs(*r1))
    assert bug < 0.7 and ok > 0.9, (bug, ok)
    return f"epochs at the first 40 triggers: val acc {bug:.2f} (2 classes); epochs at MI onsets: val acc {ok:.2f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

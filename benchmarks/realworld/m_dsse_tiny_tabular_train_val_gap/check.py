"""Nothing is broken: with 40 rows the net reaches ~95% train accuracy and much lower validation accuracy; the same
code with more data closes most of the gap (a larger held-out set is used to measure it reliably)."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _target():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("m_dsse_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit(mod, n_train, epochs=150, bs=20):
    torch.manual_seed(0)
    model = mod.SmallNet()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    x, y = mod.make_split(n_train, seed=1)
    for _ in range(epochs):
        model.train()
        perm = torch.randperm(len(x))
        for i in range(0, len(x), bs):
            idx = perm[i:i + bs]
            opt.zero_grad()
            F.cross_entropy(model(x[idx]), y[idx]).backward()
            opt.step()
    xv, yv = mod.make_split(400, seed=2)  # the 10-row validation split is the first 10 of these
    acc = lambda a, b: (mod.eval_fn(model, a).argmax(1) == b).float().mean().item()
    return acc(x, y), acc(xv[:10], yv[:10]), acc(xv, yv)


def _check() -> str:
    mod = _target()
    tr, va10, va = _fit(mod, 40)
    assert tr >= 0.9 and tr - va > 0.2, (tr, va)
    tr_big, _, va_big = _fit(mod, 800, epochs=8, bs=40)
    assert va_big > va + 0.1 and tr_big - va_big < tr - va, (tr_big, va_big)
    return (f"40 training rows: train acc {tr:.2f}, val acc {va10:.2f} on the 10-row split ({va:.2f} on 400 rows); "
            f"same net with 800 rows: train {tr_big:.2f}, val {va_big:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

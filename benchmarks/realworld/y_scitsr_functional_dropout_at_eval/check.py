"""After model.eval(), the functional-dropout model still gives different outputs per call and lower accuracy."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F

_spec = importlib.util.spec_from_file_location("y_scitsr_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _run(functional):
    torch.manual_seed(0)
    model = _t.RelationNet(functional=functional)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    inputs, label = _t.make_data()
    for _ in range(300):
        opt.zero_grad()
        F.cross_entropy(model(inputs), label).backward()
        opt.step()
    model.eval()
    tin, tlab = _t.make_data(seed=1)
    with torch.no_grad():
        a, b = model(tin), model(tin)
    return (a - b).abs().max().item(), _t.accuracy(a, tlab), (a.argmax(-1) != b.argmax(-1)).float().mean().item()


def _check() -> str:
    diff, acc, flips = _run(True)
    diff_ok, acc_ok, flips_ok = _run(False)
    assert diff > 0.1 and flips > 0.05, (diff, flips)
    assert diff_ok == 0.0 and flips_ok == 0.0, diff_ok
    assert acc_ok > acc + 0.05, (acc, acc_ok)
    return (f"functional dropout after eval(): two passes on the same input differ by up to {diff:.2f}, {flips:.0%} of "
            f"predictions flip, test acc {acc:.2f}; nn.Dropout: identical passes, test acc {acc_ok:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

"""Train on the buggy split and on the fixed split; the buggy validation accuracy tracks training accuracy."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F

_spec = importlib.util.spec_from_file_location("y_marin_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _run(shuffle_before_slice):
    torch.manual_seed(0)
    x, y = _t.make_data()
    tr, va = _t.split(shuffle_before_slice)
    overlap = len(set(tr.tolist()) & set(va.tolist())) / len(va)
    model = _t.MLP()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(400):
        opt.zero_grad()
        F.cross_entropy(model(x[tr]), y[tr]).backward()
        opt.step()
    with torch.no_grad():
        return overlap, _t.accuracy(model(x[tr]), y[tr]), _t.accuracy(model(x[va]), y[va])


def _check() -> str:
    ov, tr_acc, va_acc = _run(True)
    ov_ok, tr_ok, va_ok = _run(False)
    assert ov > 0.7 and ov_ok == 0.0, (ov, ov_ok)
    assert tr_acc > 0.95 and va_acc > 0.85, (tr_acc, va_acc)
    assert va_ok < va_acc - 0.2, (va_ok, va_acc)
    return (f"buggy split: {ov:.0%} of validation rows also in train, train acc {tr_acc:.2f}, val acc {va_acc:.2f}; "
            f"disjoint split: train acc {tr_ok:.2f}, val acc {va_ok:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

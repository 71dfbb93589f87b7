import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("z_tvinc_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _finetune(lr):
    tg = _t.make_target(lr)
    m, (x, y) = tg["model"], tg["batch"]
    opt = tg["optimizer"](m.parameters())
    acc = lambda: (m(x).argmax(1) == y).float().mean().item()
    a0 = acc()
    for _ in range(60):
        opt.zero_grad()
        tg["loss_fn"](m(x), y).backward()
        opt.step()
    return a0, acc()


def _check() -> str:
    b0, b1 = _finetune(30.0)
    g0, g1 = _finetune(1e-3)
    assert b0 > 0.8 and b1 < b0 - 0.3 and g1 >= g0 - 0.02, (b0, b1, g0, g1)
    return f"SGD lr 30: accuracy {b0:.2f} -> {b1:.2f} after 60 steps; lr 1e-3: {g0:.2f} -> {g1:.2f}"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

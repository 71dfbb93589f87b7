import importlib.util
import os

import torch
import torch.nn as nn


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_w_mvcnn_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, relu):
    torch.manual_seed(0)
    model = mod.MVCNN(relu_after_fc8=relu)
    x, y = mod.data()
    xv, yv = mod.data(128, seed=1)
    opt = torch.optim.SGD(model.parameters(), lr=1.0, momentum=0.9)
    for step in range(120):
        i = (step * 32) % 256
        opt.zero_grad()
        nn.functional.cross_entropy(model(x[i:i + 32]), y[i:i + 32]).backward()
        opt.step()
    with torch.no_grad():
        out = model(xv)
    return out, (out.argmax(-1) == yv).float().mean().item()


def _check() -> str:
    mod = _load()
    out, acc = _run(mod, True)
    _, acc_ok = _run(mod, False)
    zero_rows = (out.abs().max(-1).values == 0).float().mean().item()
    frac0 = (out.argmax(-1) == 0).float().mean().item()
    assert zero_rows > 0.9 and frac0 > 0.9 and acc < 0.2, (zero_rows, frac0, acc)
    assert acc_ok > 0.5, acc_ok
    return (f"ReLU after fc8: {zero_rows:.0%} of val inputs get all-zero scores, {frac0:.0%} predicted class 0, "
            f"val acc {acc:.2f}; without it: val acc {acc_ok:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

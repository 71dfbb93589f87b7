import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_e_d2lnotes_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, clear: bool):
    torch.manual_seed(0)
    model = mod.build()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = mod.blobs(2000, 1)
    vx, vy = mod.blobs(500, 2)
    accs = []
    for _ in range(6):
        for i in range(0, 2000, 50):
            if clear:
                opt.zero_grad()
            mod.train_step(model, (x[i : i + 50], y[i : i + 50]), opt, F.cross_entropy)
        with torch.no_grad():
            accs.append((model(vx).argmax(1) == vy).float().mean().item())
    return accs


def _check() -> str:
    mod = _load()
    bug, ok = _run(mod, False), _run(mod, True)
    assert bug[-1] < bug[0] - 0.08 and bug[-1] < 0.7, bug
    assert ok[-1] > 0.8 and ok[-1] >= ok[0], ok
    return f"test accuracy per epoch without zero_grad {bug[0]:.2f} -> {bug[-1]:.2f}; with it {ok[0]:.2f} -> {ok[-1]:.2f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_b_lr_1e5_slow_convergence_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, lr, steps=300):
    t = mod.make_target()
    model, (x, y), loss_fn = t["model"], t["batch"], t["loss_fn"]
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    first = last = None
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        first = float(loss.detach()) if first is None else first
        last = float(loss.detach())
    return first, last


def _check() -> str:
    mod = _load()
    f_lo, l_lo = _run(mod, mod.LR)
    f_ok, l_ok = _run(mod, 1e-3)
    assert (f_lo - l_lo) / f_lo < 0.1 and (f_ok - l_ok) / f_ok > 0.7, (f_lo, l_lo, f_ok, l_ok)
    return (f"300 Adam steps at lr=1e-5: loss {f_lo:.3f} -> {l_lo:.3f} ({(f_lo - l_lo) / f_lo:.1%} lower); "
            f"at lr=1e-3: {f_ok:.3f} -> {l_ok:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

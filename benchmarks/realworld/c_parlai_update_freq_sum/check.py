import copy
import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_c_parlai_update_freq_sum_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    x, y = t["train_data"]
    accum = t["model"]
    plain = copy.deepcopy(accum)
    opt_a = t["optimizer"](accum.parameters())
    opt_p = t["optimizer"](plain.parameters())
    for step in range(60):
        i = (step * 64) % 1024
        t["train_step"](accum, (x[i : i + 64], y[i : i + 64]), opt_a, t["loss_fn"])
        opt_p.zero_grad()
        t["loss_fn"](plain(x[i : i + 64]), y[i : i + 64]).backward()
        opt_p.step()
    vx, vy = t["val_data"]
    with torch.no_grad():
        la, lp = float(t["loss_fn"](accum(vx), vy)), float(t["loss_fn"](plain(vx), vy))
    assert not la < 5 * lp, (la, lp)
    return f"same lr, same samples: val loss {la:.3g} with update_freq 8 (summed), {lp:.3f} without accumulation"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

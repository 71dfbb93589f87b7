import copy
import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_b_accum_division_removed_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@torch.no_grad()
def _update_norm(before, after):
    return float(torch.sqrt(sum(((a - b) ** 2).sum() for a, b in zip(after.parameters(), before.parameters()))))


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn, batch = t["model"], t["loss_fn"], t["batch"]
    ref = copy.deepcopy(model)
    # buggy accumulated step
    m1 = copy.deepcopy(model)
    opt1 = t["optimizer"](m1.parameters())
    t["train_step"](m1, batch, opt1, loss_fn)
    # one step on the full batch (what accumulation is meant to reproduce)
    m2 = copy.deepcopy(model)
    opt2 = t["optimizer"](m2.parameters())
    opt2.zero_grad()
    loss_fn(m2(*batch[0]), batch[1]).backward()
    opt2.step()
    u_acc, u_full = _update_norm(ref, m1), _update_norm(ref, m2)
    ratio = u_acc / u_full
    assert abs(ratio - mod.N_ACCUM) < 0.4, ratio
    return f"accumulated SGD update is {ratio:.2f}x the full-batch update (N_ACCUM={mod.N_ACCUM})"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

"""Runs the target's train_step: loss falls then climbs while gradient norm grows; with zero_grad it keeps falling."""

import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("t_vad_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(zero):
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    losses, gn = [], []
    for _ in range(80):
        if zero:
            opt.zero_grad()
        losses.append(t["train_step"](model, t["batch"], opt, t["loss_fn"]))
        gn.append(torch.cat([p.grad.flatten() for p in model.parameters()]).norm().item())
    return losses, gn


def _check() -> str:
    bad, bad_g = _run(False)
    ok, _ = _run(True)
    lo = min(bad[:20])
    assert lo < bad[0] - 0.1 and max(bad[30:]) > lo + 0.15, (bad[0], lo, max(bad[30:]))
    assert bad_g[-1] > 3 * bad_g[3], (bad_g[3], bad_g[-1])
    assert ok[-1] < ok[0] - 0.2 and ok[-1] < lo, (ok[0], ok[-1], lo)
    return (
        f"no zero_grad: loss {bad[0]:.2f} -> {lo:.2f} -> back up to {max(bad[30:]):.2f}, grad norm {bad_g[3]:.2f} -> "
        f"{bad_g[-1]:.2f}; with zero_grad: {ok[0]:.2f} -> {ok[-1]:.2f}"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())


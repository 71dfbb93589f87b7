"""Imports target.py: with the target's Adam step the L1 loss jumps by orders of magnitude within a few steps and
stays there; the same model and data with a 50x smaller step trains down normally."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("v_wavegrad_target", p)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def _run(m, make_opt):
    t = m.make_target()
    model = t["model"]
    opt = make_opt(model.parameters()) if make_opt else t["optimizer"](model.parameters())
    losses = []
    for step in range(30):
        x, y = m.make_batch(seed=step % 8)
        loss = t["loss_fn"](model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def _check() -> str:
    m = _load()
    bad = _run(m, None)
    ok = _run(m, lambda p: torch.optim.Adam(p, lr=1e-2))
    peak = max(x for x in bad if x == x)
    assert peak > 100 * bad[0] and min(bad[5:]) > 10 * bad[0], (bad[0], peak, min(bad[5:]))
    assert ok[-1] < 0.7 * ok[0] and max(ok) < 2 * ok[0], (ok[0], ok[-1], max(ok))
    return (
        f"target lr: L1 loss {bad[0]:.2f} -> peak {peak:.0f}, never back under {min(bad[5:]):.0f} after step 5; "
        f"lr 1e-2: {ok[0]:.2f} -> {ok[-1]:.2f}"
    )


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

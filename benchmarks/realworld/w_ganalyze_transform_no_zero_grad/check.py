"""Run the target's train_step (no zero_grad) for 200 batches vs the same loop with zero_grad."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("w_ganalyze_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _run(zero_grad):
    tg = _t.make_target()
    model = tg["model"]
    opt = tg["optimizer"]([model.w])
    g = torch.Generator().manual_seed(2)
    losses = []
    for _ in range(300):
        batch = _t.sample_batch(model, g)
        if zero_grad:
            opt.zero_grad()
        losses.append(tg["train_step"](model, batch, opt, tg["loss_fn"]).item())
    return losses, float(model.w.detach().norm())


def _avg(xs):
    return sum(xs) / len(xs)


def _check() -> str:
    bad, bad_norm = _run(False)
    ok, ok_norm = _run(True)
    best_early = min(bad[:50])
    assert _avg(bad[-50:]) > 3 * _avg(ok[-50:]), (_avg(bad[-50:]), _avg(ok[-50:]))
    assert _avg(bad[-50:]) > 2 * best_early, (best_early, _avg(bad[-50:]))
    assert bad_norm > 2 * ok_norm, (bad_norm, ok_norm)
    return (f"no zero_grad: loss {bad[0]:.3f} -> {best_early:.3f} (best in first 50) -> {_avg(bad[-50:]):.3f} (mean of "
            f"last 50), |w| {bad_norm:.1f}; with zero_grad: {_avg(ok[-50:]):.4f}, |w| {ok_norm:.1f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

"""Train the target: the hand-written sigmoid+log loss turns NaN once logits saturate; the stable form does not."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("q_anchorloss_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, loss_fn, steps=200):
    t = mod.make_target()
    model, (x, y) = t["model"], t["batch"]
    opt = t["optimizer"](model.parameters())
    losses = []
    for _ in range(steps):
        loss = loss_fn(model(x), y)
        losses.append(loss.item())
        if not torch.isfinite(loss):
            break
        opt.zero_grad()
        loss.backward()
        opt.step()
    return losses


def _check() -> str:
    mod = _load()
    bad = _train(mod, mod.sigmoid_ce)
    stable = lambda z, y: F.binary_cross_entropy_with_logits(z, F.one_hot(y, mod.C).float(), reduction="none").sum(1).mean()
    ok = _train(mod, stable)
    finite = [v for v in bad if v == v]
    assert bad[-1] != bad[-1], f"hand-written loss stayed finite: {bad[-1]}"
    assert min(finite) < 0.2 * finite[0], (finite[0], min(finite))
    assert all(v == v for v in ok) and ok[-1] < 0.01 * ok[0], (ok[0], ok[-1])
    return (f"sigmoid+log loss {finite[0]:.2f} -> {min(finite):.4f} then NaN at step {len(bad) - 1}; "
            f"stable BCE-with-logits stays finite {ok[0]:.2f} -> {ok[-1]:.2e} over {len(ok)} steps")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

"""Shows that the FM's loss is inf/NaN within a few SGD steps on the raw features, and trains fine once the
columns are standardised."""
import importlib.util
import math
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("yc_pyfm_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit(t, x, y, steps=30):
    torch.manual_seed(0)
    model = type(t["model"])(x.shape[1])
    opt = t["optimizer"](model.parameters())
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = t["loss_fn"](model(x), y)
        losses.append(loss.item())
        loss.backward()
        opt.step()
    return losses, model


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    x, y = t["batch"]
    raw, raw_model = _fit(t, x, y)
    mu, sd = x.mean(0), x.std(0)
    std, _ = _fit(t, (x - mu) / sd, y)
    first_bad = next(i for i, l in enumerate(raw) if not math.isfinite(l))
    col_scale = x.abs().max(0).values
    assert first_bad <= 5, raw[:6]
    assert torch.isnan(raw_model.v).any()
    assert all(math.isfinite(l) for l in std) and std[-1] < 0.5 * std[0], std
    return (f"raw features (max |x| per column {col_scale.min().item():.0f}..{col_scale.max().item():.0f}): loss "
            f"{raw[0]:.3g} at step 0, non-finite from step {first_bad}, factors v end up NaN; standardised: loss "
            f"{std[0]:.1f} -> {std[-1]:.1f} in 30 steps")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())

"""The shallow CNN on the raw [-1024, 1024] pixels and on the same images standardised."""

import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_f_xrayvision_pixels_pm1024_nan_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, standardise):
    t = mod.make_target()
    torch.manual_seed(0)
    model = mod.make_net()
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    if standardise:
        x = (x - x.mean()) / x.std()
    losses = []
    for _ in range(3):
        for i in range(0, len(x), 16):
            opt.zero_grad()
            loss = t["loss_fn"](model(x[i : i + 16]), y[i : i + 16])
            loss.backward()
            opt.step()
            losses.append(loss.item())
    return losses


def _check() -> str:
    mod = _load()
    raw, std = _run(mod, False), _run(mod, True)
    assert not math.isfinite(raw[-1]), raw[:5]
    first_bad = next(i for i, v in enumerate(raw) if not math.isfinite(v))
    assert first_bad <= 5, raw[:6]
    assert all(math.isfinite(v) for v in std) and sum(std[-8:]) / 8 < 0.6, std
    return (f"raw pixels: first losses {[f'{v:.3g}' for v in raw[:4]]}, non-finite from step {first_bad}; "
            f"standardised: {std[0]:.3f} -> {sum(std[-8:]) / 8:.3f} (mean of last 8)")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

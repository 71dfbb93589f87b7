"""The recurrent denoiser trained on short and on long sequences; the gradient norm grows with the length."""

import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_f_bernoulli_diffusion_long_seq_nan_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, length, steps=15):
    t = mod.make_target()
    torch.manual_seed(0)
    model = mod.RecurrentDenoiser()
    opt = t["optimizer"](model.parameters())
    x, y = mod.sequences(16, 2, length)
    losses, norms = [], []
    for _ in range(steps):
        opt.zero_grad()
        loss = t["loss_fn"](model(x), y)
        loss.backward()
        norms.append(torch.nn.utils.clip_grad_norm_(model.parameters(), float("inf")).item())
        opt.step()
        losses.append(loss.item())
    return losses, norms


def _check() -> str:
    mod = _load()
    short, short_norms = _run(mod, 12)
    long, long_norms = _run(mod, 64)
    assert all(math.isfinite(v) for v in short) and short[-1] < short[0], short
    assert not math.isfinite(long[-1]), long
    assert long_norms[0] > 1e3 * short_norms[0], (short_norms[0], long_norms[0])
    first_bad = next(i for i, v in enumerate(long) if not math.isfinite(v))
    return (f"length 12: loss {short[0]:.3f} -> {short[-1]:.3f}, first grad norm {short_norms[0]:.3g}; "
            f"length 64: first grad norm {long_norms[0]:.3g}, loss non-finite from step {first_bad}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

"""Train the target as configured: the loss is finite for dozens of steps, then NaN; with clip_grad_norm_(1.0) it stays finite."""

import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_e_lstmp_long_sequence_nan_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(clip):
    t = _load().make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    losses, norms = [], []
    for step in range(66):
        i = (step * 32) % len(x)
        opt.zero_grad()
        loss = t["loss_fn"](model(x[i : i + 32]), y[i : i + 32])
        loss.backward()
        norms.append(torch.nn.utils.clip_grad_norm_(model.parameters(), clip).item())
        opt.step()
        losses.append(loss.item())
        if not math.isfinite(losses[-1]):
            break
    return losses, norms


def _check() -> str:
    losses, norms = _run(float("inf"))
    first_nan = next(i for i, v in enumerate(losses) if not math.isfinite(v))
    assert first_nan >= 40, losses
    assert max(norms[first_nan - 10 : first_nan - 1]) > 3 * max(norms[:10]), norms
    clipped, _ = _run(1.0)
    assert len(clipped) == 66 and all(math.isfinite(v) for v in clipped), clipped
    return (
        f"no clipping: loss {losses[0]:.2f} -> {losses[first_nan - 1]:.2f}, grad norm up to "
        f"{max(norms[:first_nan - 1]):.1f}, NaN at step {first_nan}; with clip 1.0 still finite at step 66 ({clipped[-1]:.2f})"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_d_aihwkit_example_no_zero_grad_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(step_fn):
    t = _load().make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    return [step_fn(model, t["batch"], opt, t["loss_fn"]).item() for _ in range(10)]


def _check() -> str:
    mod = _load()
    losses = _run(mod.train_step)

    def with_zero_grad(model, batch, optimizer, loss_fn):
        optimizer.zero_grad()
        return mod.train_step(model, batch, optimizer, loss_fn)

    fixed = _run(with_zero_grad)
    low = min(losses)
    assert losses.index(low) < 9 and losses[-1] > 3 * low, losses
    assert all(b <= a for a, b in zip(fixed, fixed[1:])) and fixed[-1] < losses[-1], fixed
    return (
        f"10 iterations: loss {losses[0]:.3f} -> min {low:.3f} at iteration {losses.index(low) + 1} -> "
        f"{losses[-1]:.3f}; with zero_grad() each iteration it falls steadily to {fixed[-1]:.3f}"
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

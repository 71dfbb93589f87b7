import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_b_zero_grad_kws_executor_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn, batch = t["model"], t["loss_fn"], t["batch"]
    opt = t["optimizer"](model.parameters())
    for _ in range(10):
        t["train_step"](model, batch, opt, loss_fn)
    held = [p.grad.clone() for p in model.parameters()]
    for p in model.parameters():
        p.grad = None
    loss_fn(model(batch[0]), batch[1]).backward()
    fresh = [p.grad for p in model.parameters()]
    n_held = float(torch.sqrt(sum((g ** 2).sum() for g in held)))
    n_fresh = float(torch.sqrt(sum((g ** 2).sum() for g in fresh)))
    assert n_held > 3 * n_fresh, (n_held, n_fresh)
    return f"after 10 steps .grad norm is {n_held:.3f} vs {n_fresh:.3f} for this batch alone (stale gradients summed)"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_c_release_policy_loss_detached_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _load().make_target()
    model = t["model"]
    x, y = t["batch"]
    before = [p.detach().clone() for p in model.parameters()]
    opt = t["optimizer"](model.parameters())
    opt.zero_grad()
    loss = t["loss_fn"](model(x), y)
    loss.backward()
    grads = [p.grad for p in model.parameters()]
    opt.step()
    unchanged = all(torch.equal(b, p) for b, p in zip(before, model.parameters(), strict=True))
    assert all(g is None for g in grads) and unchanged
    return (
        f"loss {loss.item():.3f} backpropagates without error, yet all {len(grads)} parameter grads are None "
        f"and step() changes nothing"
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

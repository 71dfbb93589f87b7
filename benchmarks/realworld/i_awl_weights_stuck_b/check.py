import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_i_awl_weights_stuck_b_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(t, params):
    opt = t["optimizer"](params)
    x, (v, c) = t["train_data"]
    for _ in range(10):
        for i in range(0, len(x), 32):
            opt.zero_grad()
            t["loss_fn"](t["model"](x[i : i + 32]), (v[i : i + 32], c[i : i + 32])).backward()
            opt.step()


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    _train(t, t["model"].parameters())
    stuck = mod.awl.params.detach().clone()
    has_grad = mod.awl.params.grad is not None and bool(mod.awl.params.grad.abs().sum() > 0)
    mod = _load()  # fresh module: fresh loss weights
    t = mod.make_target()
    _train(t, list(t["model"].parameters()) + list(mod.awl.parameters()))
    moved = mod.awl.params.detach()
    assert torch.equal(stuck, torch.ones(2)) and has_grad, (stuck, has_grad)
    assert (moved - 1).abs().max() > 0.3, moved
    return (
        f"loss weights still exactly {stuck.tolist()} after 10 epochs although they receive gradients "
        f"(they move to {[round(v, 2) for v in moved.tolist()]} once the optimizer holds them)"
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

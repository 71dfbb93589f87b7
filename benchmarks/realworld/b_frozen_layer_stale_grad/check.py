import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_b_frozen_layer_stale_grad_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, batch, loss_fn = t["model"], t["batch"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    w0 = model.fc1.weight.detach().clone()
    for _ in range(20):
        t["train_step"](model, batch, opt, loss_fn)
    delta = float((model.fc1.weight - w0).abs().max())
    assert not model.fc1.weight.requires_grad and delta > 1e-6, delta
    return f"fc1 has requires_grad=False, yet its weights moved by up to {delta:.2e} over 20 steps"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

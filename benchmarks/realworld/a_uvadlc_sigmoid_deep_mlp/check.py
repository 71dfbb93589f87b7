import importlib.util
import os

import torch
import torch.nn.functional as F


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_a_uvadlc_sigmoid_deep_mlp_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model = t["model"]
    inputs, y = t["batch"]
    t["loss_fn"](model(*inputs), y).backward()
    linears = [m for m in model.modules() if isinstance(m, torch.nn.Linear)]
    grads = [m.weight.grad.abs().mean().item() for m in linears]
    ratio = grads[-1] / grads[0]
    assert ratio > 1e3, grads
    return (f"mean |grad| per layer (input -> output): " + ", ".join(f"{g:.1e}" for g in grads)
            + f"; output/first ratio {ratio:.0e}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny tensors: thread start-up costs more than the math
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())

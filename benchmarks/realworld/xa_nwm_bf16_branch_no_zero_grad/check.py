import copy
import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("xa_nwm_bf16_branch_no_zero_grad_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn, step = t["model"], t["loss_fn"], t["train_step"]
    opt = t["optimizer"](model.parameters())
    data = t["train_data"]
    for b in data[:4]:
        step(model, b, opt, loss_fn)
    # gradient of the 5th batch alone, on a copy of the current weights
    probe = copy.deepcopy(model)
    probe.zero_grad(set_to_none=True)
    (x_t, tt), eps = data[4]
    with torch.autocast("cpu", enabled=mod.BFLOAT_ENABLE, dtype=torch.bfloat16):
        loss_fn(probe(x_t, tt), eps).backward()
    fresh = probe.out.weight.grad.clone()
    step(model, data[4], opt, loss_fn)
    held = model.out.weight.grad
    rel = ((held - fresh).norm() / fresh.norm()).item()
    ratio = (held.norm() / fresh.norm()).item()
    assert rel > 0.5, rel
    return (f"after 5 steps on the bf16 path, out.weight.grad differs from the 5th batch's own gradient by "
            f"{rel:.2f} (relative), norm ratio {ratio:.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())

import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("tc_relu_output_stuck_zero_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    x, y = t["batch"]
    out0 = model(x)
    frac_zero = (out0 == 0).float().mean().item()
    opt = t["optimizer"](model.parameters())
    first = None
    for _ in range(100):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        if first is None:
            first = loss.item()
            gnorm = sum(p.grad.abs().sum().item() for p in model.parameters())
        opt.step()
    assert frac_zero == 1.0, frac_zero
    assert gnorm == 0.0, gnorm
    assert abs(loss.item() - first) < 1e-6, (first, loss.item())
    return (f"all {x.shape[0]} predictions are exactly 0 at init, total gradient {gnorm:.1f}; "
            f"loss {first:.2f} -> {loss.item():.2f} after 100 Adam steps")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())

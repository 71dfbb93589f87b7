import importlib.util
import math
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("wb_dists_l2pool_sqrt_nan_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    x, y = t["batch"]
    opt = t["optimizer"](model.parameters())
    losses, first_bad_grad = [], None
    for step in range(4):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        losses.append(loss.item())
        loss.backward()
        finite = all(torch.isfinite(p.grad).all().item() for p in model.parameters())
        if not finite and first_bad_grad is None:
            first_bad_grad = step
        opt.step()
    assert math.isfinite(losses[0]), losses
    assert first_bad_grad == 0, first_bad_grad
    assert math.isnan(losses[-1]), losses
    return (f"first loss {losses[0]:.3f} is finite but its gradient is already non-finite; "
            f"after one update the loss is {losses[1]} and stays NaN")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())

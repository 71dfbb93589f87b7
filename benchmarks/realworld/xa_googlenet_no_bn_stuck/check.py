import importlib.util
import math
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("xa_googlenet_no_bn_stuck_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    x, y = t["batch"]
    loss_fn(model(x), y).backward()
    convs = [m for m in model.features if isinstance(m, torch.nn.Conv2d)]
    g_first = convs[0].weight.grad.norm().item()
    g_last = convs[-1].weight.grad.norm().item()
    model.zero_grad()
    opt = t["optimizer"](model.parameters())
    for _ in range(3):
        for xb, yb in t["train_data"]:
            opt.zero_grad()
            loss_fn(model(xb), yb).backward()
            opt.step()
    xv, yv = t["val_data"]
    with torch.no_grad():
        val = loss_fn(model(xv), yv).item()
    chance = math.log(mod.N_CLASSES)
    assert g_first < 1e-3 * g_last, (g_first, g_last)
    assert val > 0.95 * chance, (val, chance)
    return (f"conv1 grad norm {g_first:.2e} vs conv{len(convs)} {g_last:.2e}; after 24 SGD steps val loss "
            f"{val:.3f} (chance {chance:.3f})")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())

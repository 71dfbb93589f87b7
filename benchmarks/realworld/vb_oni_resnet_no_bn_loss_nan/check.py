"""Shows the loss blowing up with the default ONI scale in a BN-free ResNet, and staying finite with scale 0.6."""
import importlib.util
import math
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("vb_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, scale=None, steps=15):
    t = mod.make_target()
    model = t["model"]
    if scale is not None:
        for m in model.modules():
            if isinstance(m, mod.ONIConv2d):
                m.scale = scale
    opt = t["optimizer"](model.parameters())
    x, y = t["batch"]
    losses, grad0 = [], None
    for _ in range(steps):
        opt.zero_grad()
        loss = t["loss_fn"](model(x), y)
        loss.backward()
        if grad0 is None:
            grad0 = model.stem.weight.grad.norm().item()
        opt.step()
        losses.append(loss.item())
    return losses, grad0


def _run() -> str:
    mod = _load()
    bad, g_bad = _train(mod)
    good, g_good = _train(mod, scale=0.6)
    worst = max(bad) if all(math.isfinite(v) for v in bad) else float("inf")
    assert worst > 1e4, bad
    assert max(good) < 3.0 and all(math.isfinite(v) for v in good), good
    assert g_bad > 10 * g_good, (g_bad, g_good)
    return (f"default scale sqrt(2): loss {bad[0]:.2f} -> max {worst:.3g} within 15 SGD steps, first-layer grad norm "
            f"{g_bad:.2f}; scale 0.6: loss {good[0]:.2f} -> {good[-1]:.2f}, grad norm {g_good:.3f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        torch.manual_seed(0)
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())

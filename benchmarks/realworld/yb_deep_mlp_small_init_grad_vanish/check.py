import importlib.util
import math
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("yb_deepmlp_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _grad_norms(model, x, y):
    """Weight-gradient norms per layer, and the norm of dLoss/d(input of each layer)."""
    model.zero_grad()
    acts = []
    hooks = [layer.register_forward_pre_hook(lambda m, inp: (inp[0].retain_grad(), acts.append(inp[0]))[-1] and None)
             for layer in model.layers]
    x = x.clone().requires_grad_(True)
    torch.nn.functional.nll_loss(model(x), y).backward()
    for h in hooks:
        h.remove()
    return [layer.weights.grad.norm().item() for layer in model.layers], [a.grad.norm().item() for a in acts]


def _train(mod, model, steps=40):
    opt = torch.optim.SGD(model.parameters(), lr=mod.LEARNING_RATE)
    for step in range(steps):
        x, y = mod.make_digits(32, seed=100 + step)
        opt.zero_grad()
        loss = torch.nn.functional.nll_loss(model(x), y)
        loss.backward()
        opt.step()
    vx, vy = mod.make_digits(128, seed=1)
    with torch.no_grad():
        return torch.nn.functional.nll_loss(model(vx), vy).item()


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    x, y = t["batch"]
    g, ag = _grad_norms(t["model"], x, y)
    val = _train(mod, t["model"])

    torch.manual_seed(0)
    twin = mod.MLP()
    with torch.no_grad():
        for layer in twin.layers:
            layer.weights.normal_(0.0, math.sqrt(2.0 / layer.weights.shape[0]))   # He init
    tg, tag = _grad_norms(twin, x, y)
    tval = _train(mod, twin)

    ratio, tratio = ag[0] / ag[-1], tag[0] / tag[-1]
    assert ratio < 1e-4, ag            # the backward signal shrinks layer after layer
    assert tratio > 1e-1, tag
    assert max(g) < 1e-2 * min(tg), (g, tg)
    assert abs(val - math.log(10)) < 0.01, val
    assert tval < 0.6 * math.log(10), tval
    return (f"init std 0.01: dL/d(layer input) {ag[-1]:.1e} at the last layer -> {ag[0]:.1e} at the first "
            f"(ratio {ratio:.0e}), weight grads <= {max(g):.1e}, val NLL after 40 SGD steps {val:.4f} "
            f"(ln10={math.log(10):.4f}); He init: ratio {tratio:.2f}, weight grads >= {min(tg):.1e}, val NLL {tval:.3f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())

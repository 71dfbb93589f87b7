import importlib.util
import os

import torch
import torch.nn.functional as F


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("wa_fastmoe_balance_loss_tensor_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _gate_grad(model, loss):
    model.zero_grad()
    loss.backward()
    return torch.cat([layer.gate.weight.grad.flatten().clone() for layer in model.moe])


def _train(mod, coef, steps=60):
    torch.manual_seed(0)
    t = mod.make_target()
    model, (x, y) = t["model"], t["batch"]
    mod.BALANCE_COEF = coef
    opt = t["optimizer"](model.parameters())
    for _ in range(steps):
        opt.zero_grad()
        t["loss_fn"](model(x), y).backward()
        opt.step()
    with torch.no_grad():
        _, bl = model(x)
    return sum(float(b) for b in bl) / len(bl)


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, (x, y) = t["model"], t["batch"]
    out = model(x)
    total = t["loss_fn"](out, y)
    bal = mod.balance_loss(out[1])
    g_total = _gate_grad(model, total)
    out = model(x)
    g_task = _gate_grad(model, F.cross_entropy(out[0], y))
    assert not bal.requires_grad and torch.allclose(g_total, g_task), (bal.requires_grad,)

    b0 = _train(mod, 0.0)
    b10 = _train(mod, 10.0)
    mod.BALANCE_COEF = 1.0
    assert abs(b0 - b10) < 1e-6, (b0, b10)
    return (f"balance loss {bal.item():.3f} (1.0 = balanced) has requires_grad={bal.requires_grad}; gate gradient "
            f"identical with and without it; balance loss after 60 steps: {b0:.3f} with coef 0, {b10:.3f} with coef 10")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())

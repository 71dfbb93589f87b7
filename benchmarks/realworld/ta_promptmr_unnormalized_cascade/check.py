import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("ta_promptmr_unnormalized_cascade_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    x, y = t["batch"]
    x = x.clone().requires_grad_(True)
    states = []
    h = x
    for block in model.cascades:
        h = h + block(h)
        h.retain_grad()
        states.append(h)
    loss = loss_fn(h, y)
    loss.backward()
    g_in = x.grad.norm().item()
    g_out = states[-1].grad.norm().item()
    ratio_out = (h.std() / x.std()).item()
    assert g_in / g_out > 50 and ratio_out > 20, (g_in, g_out, ratio_out)
    return (f"at init the cascade output is {ratio_out:.0f}x the input scale (L1 {loss.item():.1f} vs target std "
            f"{y.std().item():.2f}); the loss gradient grows {g_in / g_out:.0f}x from the last cascade back to the input")

def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())

"""Attention sharpness and program-key gradients with raw dot-product scores vs scores divided by sqrt(K)."""
import importlib.util
import math
import os

import torch

_HERE = os.path.dirname(os.path.abspath(__file__))


def _load():
    spec = importlib.util.spec_from_file_location("u_cellcap_target", os.path.join(_HERE, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, scaled, steps=150):
    t = mod.make_target()
    model, (x, y), loss_fn = t["model"], t["batch"], t["loss_fn"]
    if scaled:
        K = model.keys.shape[1]

        def attention(inp, m=model):
            z = m.encoder(inp)
            return z, torch.softmax(z @ m.keys.T / math.sqrt(K), dim=-1)
        model.attention = attention
    _, beta = model.attention(x)
    top = beta.max(dim=1).values
    max_w = top.mean().item()
    saturated = (top > 0.95).float().mean().item()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
    _, beta = model.attention(x)
    return max_w, saturated, (beta.max(dim=1).values > 0.95).float().mean().item(), loss.item()


def _check() -> str:
    mod = _load()
    b_max, b_sat, b_sat_end, b_loss = _run(mod, scaled=False)
    g_max, g_sat, g_sat_end, g_loss = _run(mod, scaled=True)
    assert b_max > 0.85 and g_max < 0.7, (b_max, g_max)
    assert b_sat > 0.5 and b_sat_end > 0.5 and g_sat < 0.1, (b_sat, b_sat_end, g_sat)
    return (f"raw dot-product scores (K=128): mean top attention weight {b_max:.3f}, {b_sat:.0%} of cells put >0.95 on "
            f"one program ({b_sat_end:.0%} after 150 steps); divided by sqrt(K): top weight {g_max:.3f}, "
            f"{g_sat:.0%} of cells saturated")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

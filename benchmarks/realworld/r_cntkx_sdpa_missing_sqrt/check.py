"""Attention weights saturate to near one-hot at init, unlike the same model with scores scaled by 1/sqrt(d)."""

import importlib.util
import math
from pathlib import Path

import torch
import torch.nn.functional as F


def _load():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("r_cntkx_target", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def _stats(mod, t, scaled):
    model, (x, y) = t["model"], t["batch"]
    if scaled:
        d = model.q.out_features
        orig = mod.sdpa
        mod.sdpa = lambda q, k, v: orig(q / math.sqrt(d), k, v)
    try:
        out = model(x)
        loss = t["loss_fn"](out, y)
        loss.backward()
        w = model.last_weights
        maxw = w.max(-1).values.mean().item()
        qk = (model.q.weight.grad.norm() + model.k.weight.grad.norm()).item()
        vg = model.v.weight.grad.norm().item()
    finally:
        if scaled:
            mod.sdpa = orig
    return maxw, qk / vg


def _check() -> str:
    mod = _load()
    bad_w, bad_ratio = _stats(mod, mod.make_target(), scaled=False)
    ok_w, ok_ratio = _stats(mod, mod.make_target(), scaled=True)
    assert bad_w > 0.9 and ok_w < 0.6, (bad_w, ok_w)
    return (f"unscaled scores: mean max attention weight {bad_w:.3f} (near one-hot); "
            f"scaled by 1/sqrt(d): {ok_w:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

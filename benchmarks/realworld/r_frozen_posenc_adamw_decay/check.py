import importlib.util
import os

import torch


def _load(name):
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(name, os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load("rw_r_frozen_posenc_adamw_decay_target").make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    x, y = t["batch"]
    opt = t["optimizer"](model.parameters())
    pe0 = model.pe.detach().clone()
    for _ in range(150):
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        assert model.pe.grad.abs().max().item() == 0.0
        opt.step()
    ratio = model.pe.norm().item() / pe0.norm().item()
    changed = (model.pe - pe0).abs().max().item()
    assert ratio < 0.9 and changed > 0.05, (ratio, changed)
    return f"positional table meant to be frozen (zero grads): after 150 AdamW steps its norm is {ratio:.2f}x the original, max change {changed:.3f}"


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())

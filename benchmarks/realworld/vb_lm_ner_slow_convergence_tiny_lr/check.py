"""Shows the loss barely moving at the configured lr, and falling fast at lr 1e-3 on the same model and batch."""
import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("vb_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, lr=None, steps=40):
    t = mod.make_target()
    model, (x, y) = t["model"], t["batch"]
    opt = t["optimizer"](model.parameters())
    if lr is not None:
        for g in opt.param_groups:
            g["lr"] = lr
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = t["loss_fn"](model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def _run() -> str:
    mod = _load()
    slow = _train(mod)
    fast = _train(mod, lr=1e-3)
    assert slow[-1] > 0.98 * slow[0], slow
    assert fast[-1] < 0.5 * fast[0], fast
    return (f"40 AdamW steps: loss {slow[0]:.3f} -> {slow[-1]:.3f} at the configured lr 1e-6, "
            f"{fast[0]:.3f} -> {fast[-1]:.3f} at lr 1e-3")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())

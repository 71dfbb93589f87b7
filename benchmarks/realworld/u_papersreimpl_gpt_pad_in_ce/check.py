"""The reported loss falls fast while the loss on real (non-pad) tokens stays high: pad positions dominate it."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _target():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("u_papersreimpl_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _target()
    cfg = t.make_target()
    model, loss_fn = cfg["model"], cfg["loss_fn"]
    opt = cfg["optimizer"](model.parameters())
    data = cfg["train_data"]
    x0, y0 = data[0]
    with torch.no_grad():
        start = loss_fn(model(x0), y0).item()
    for step in range(120):
        x, y = data[step % len(data)]
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
    x, y = t.make_batch(seed=99)
    with torch.no_grad():
        logits = model(x)
        full = loss_fn(logits, y).item()
        real = y != t.PAD
        real_loss = F.cross_entropy(logits[real], y[real]).item()
    pad_share = 1.0 - real.float().mean().item()
    assert pad_share > 0.7, pad_share
    assert full < 0.5 * start, (start, full)
    assert real_loss > 2.5 * full, (full, real_loss)
    return (f"{pad_share:.0%} of target positions are pad; reported loss {start:.2f} -> {full:.2f}, "
            f"loss on real tokens only {real_loss:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

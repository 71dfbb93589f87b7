"""Shows the reported accuracy/loss are dominated by padded slots while real words are mostly mistagged."""
import importlib.util
from pathlib import Path

import torch
from torch import nn


def _load():
    spec = importlib.util.spec_from_file_location("vb_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, (x, y) = t["model"], t["batch"]
    opt = t["optimizer"](model.parameters())
    for _ in range(15):
        opt.zero_grad()
        loss = t["loss_fn"](model(x), y)
        loss.backward()
        opt.step()
    with torch.no_grad():
        logits = model(x)
    real = x != 0
    acc_all = t["metric_fn"](logits, y)
    acc_real = (logits.argmax(-1)[real] == y[real]).float().mean().item()
    loss_all = t["loss_fn"](logits, y).item()
    loss_real = nn.functional.cross_entropy(logits[real], y[real]).item()
    assert real.float().mean() < 0.2
    assert acc_all > 0.85 and acc_real < 0.5, (acc_all, acc_real)
    assert loss_real > 3 * loss_all, (loss_all, loss_real)
    return (f"{real.float().mean().item():.0%} of slots are real words; reported accuracy {acc_all:.2f} / loss "
            f"{loss_all:.3f}, but on real words accuracy {acc_real:.2f} / loss {loss_real:.3f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())

"""The loss floors far above zero although accuracy saturates: the output is softmaxed twice."""

import importlib.util
import math
from pathlib import Path

import torch
from torch import nn


def _target():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("u_safeds_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(model, x, y, epochs=300):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    ce = nn.CrossEntropyLoss()
    first = None
    for _ in range(epochs):
        opt.zero_grad()
        loss = ce(model(x), y)
        loss.backward()
        opt.step()
        first = loss.item() if first is None else first
    with torch.no_grad():
        out = model(x)
        return first, ce(out, y).item(), (out.argmax(1) == y).float().mean().item()


def _check() -> str:
    t = _target()
    cfg = t.make_target()
    x, y = cfg["train_data"]
    first, last, acc = _train(cfg["model"], x, y)
    torch.manual_seed(0)
    fixed = t.build_model()[:-1]
    _, last_ok, acc_ok = _train(fixed, x, y)
    floor = -math.log(math.e / (math.e + 2.0))
    assert acc > 0.9 and last > floor - 1e-3 and last > 0.5, (acc, last)
    assert last_ok < 0.2 * last, (last_ok, last)
    return (f"softmax output + CrossEntropyLoss: loss {first:.2f} -> {last:.3f} (floor {floor:.3f}) at train acc "
            f"{acc:.2f}; raw logits: loss {last_ok:.3f}, acc {acc_ok:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

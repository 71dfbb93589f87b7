"""Train the target's existence head: with the sigmoid inside the head and BCEWithLogits, the loss cannot go below ~0.5
even with perfect classification; with BCELoss on the probabilities (or logits into BCEWithLogits) it goes to ~0."""

import importlib.util
from pathlib import Path

import torch
import torch.nn as nn

_spec = importlib.util.spec_from_file_location("x_resa_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _train(fixed):
    tg = _t.make_target()
    model = tg["model"]
    opt = tg["optimizer"](model.parameters())
    loss_fn = nn.BCELoss() if fixed else tg["loss_fn"]
    g = torch.Generator().manual_seed(1)
    losses = []
    for _ in range(200):
        feat, exist = _t.make_batch(g)
        loss = loss_fn(model(feat), exist)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    feat, exist = _t.make_batch(torch.Generator().manual_seed(99), n=256)
    with torch.no_grad():
        acc = tg["metric_fn"](model(feat), exist)
    return losses, acc


def _check() -> str:
    bug, acc_bug = _train(False)
    ok, acc_ok = _train(True)
    tail_bug, tail_ok = sum(bug[-20:]) / 20, sum(ok[-20:]) / 20
    assert acc_bug > 0.95, acc_bug
    assert tail_bug > 0.45, tail_bug
    assert tail_ok < 0.1, tail_ok
    return (f"sigmoid head + BCEWithLogits: loss {bug[0]:.3f} -> {tail_bug:.3f} (floor ~0.50) while existence accuracy "
            f"{acc_bug:.1%}; BCELoss on the probabilities: loss -> {tail_ok:.3f}, accuracy {acc_ok:.1%}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

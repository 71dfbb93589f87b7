"""Same SRCNN, same data: 150 SGD steps at the target's lr vs a larger step size."""

import importlib.util
from pathlib import Path

import torch
from torch import nn

_spec = importlib.util.spec_from_file_location("n_srcnn_target", Path(__file__).with_name("target.py"))
T = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(T)


def _run(lr):
    torch.manual_seed(0)
    m = T.model_fn()
    x, y = T.make_data()
    opt = torch.optim.SGD(m.parameters(), lr=lr)
    losses = []
    for _ in range(80):
        opt.zero_grad()
        loss = nn.functional.mse_loss(m(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def _check() -> str:
    slow = _run(1e-5)
    fast = _run(1e-1)
    drop_slow = 1 - slow[-1] / slow[0]
    drop_fast = 1 - fast[-1] / fast[0]
    assert drop_slow < 0.05 and drop_fast > 0.5, (drop_slow, drop_fast)
    return (f"lr 1e-5: loss {slow[0]:.4f} -> {slow[-1]:.4f} ({100 * drop_slow:.2f}% lower after 80 steps); "
            f"lr 1e-1: {fast[0]:.4f} -> {fast[-1]:.4f} ({100 * drop_fast:.0f}% lower)")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

"""Train the target's final layer for 500 steps at SGD lr 0.01 and at a 30x larger learning rate: the small one barely
moves the cross-entropy off ln(10) while the larger one converges."""

import importlib.util
import math
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("x_classifierbuilder_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _train(lr):
    tg = _t.make_target()
    model = tg["model"]
    opt = torch.optim.SGD(model.parameters(), lr=lr) if lr else tg["optimizer"](model.parameters())
    g = torch.Generator().manual_seed(1)
    losses = []
    for _ in range(500):
        x, y = _t.make_bottlenecks(g, n=100)
        loss = tg["loss_fn"](model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    x, y = _t.make_bottlenecks(torch.Generator().manual_seed(99), n=1000)
    with torch.no_grad():
        out = model(x)
        acc = tg["metric_fn"](out, y)
        p_true = float(out.softmax(1).gather(1, y[:, None]).mean())
    return losses, acc, p_true


def _check() -> str:
    slow, acc_slow, p_slow = _train(None)
    fast, acc_fast, p_fast = _train(0.3)
    assert slow[-1] > 0.8 * math.log(10), slow[-1]
    assert fast[-1] < 0.5 * slow[-1] and acc_fast > 0.9, (fast[-1], acc_fast)
    assert p_slow < 0.2 and p_fast > 0.7, (p_slow, p_fast)
    return (f"SGD lr 0.01: loss {slow[0]:.3f} -> {slow[-1]:.3f} after 500 steps (ln 10 = {math.log(10):.3f}), top-1 "
            f"{acc_slow:.0%} but mean probability of the true class {p_slow:.2f}; lr 0.3: loss -> {fast[-1]:.3f}, "
            f"true-class probability {p_fast:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

"""Train the target for 100 steps: the optimizer holds the placeholder's parameters, the forward uses the layer created
afterwards, so the printed loss never changes. Building the layer before the optimizer makes it fall."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("x_ocamltorch_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _train(build_first):
    tg = _t.make_target()
    model = tg["model"]
    if build_first:
        model.build()
    opt = tg["optimizer"](model.parameters())
    xs, ys = tg["batch"]
    losses = []
    for _ in range(100):
        opt.zero_grad()
        loss = tg["loss_fn"](model(xs), ys)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def _check() -> str:
    bug = _train(False)
    ok = _train(True)
    assert max(bug) - min(bug) < 1e-6, (min(bug), max(bug))
    assert ok[-1] < 0.7 * ok[0], (ok[0], ok[-1])
    return (f"optimizer built before the layer: loss {bug[0]:.4f} at step 1 and {bug[-1]:.4f} at step 100 (unchanged); "
            f"layer built first: {ok[0]:.4f} -> {ok[-1]:.4f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

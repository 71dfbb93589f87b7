"""Train the target with and without gradient-norm clipping; show the gradient growing with depth."""

import importlib.util
import math
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("y_smp_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _train(clip, steps=200):
    tg = _t.make_target()
    model = tg["model"]
    opt = tg["optimizer"](model.parameters())
    (x, adj), y = tg["batch"]
    losses, norms = [], []
    for _ in range(steps):
        opt.zero_grad()
        loss = tg["loss_fn"](model(x, adj), y)
        loss.backward()
        norms.append(float(torch.nn.utils.clip_grad_norm_(model.parameters(), clip)))
        losses.append(loss.item())
        if not math.isfinite(losses[-1]):
            break
        opt.step()
    return losses, norms


def _layer_grads():
    """Gradient of the loss w.r.t. the hidden state entering each message-passing layer."""
    tg = _t.make_target()
    model = tg["model"]
    (x, adj), y = tg["batch"]
    hs = []
    h = model.inp(x)
    for lin in model.layers:
        h.retain_grad()
        hs.append(h)
        h = h + torch.relu(lin(adj @ h))
    tg["loss_fn"](model.out(h), y).backward()
    return [v.grad.norm().item() for v in hs]


def _check() -> str:
    per_layer = _layer_grads()
    raw, raw_norms = _train(float("inf"))
    clipped, _ = _train(1.0)
    assert per_layer[0] > 100 * per_layer[-1], per_layer
    assert not math.isfinite(raw[-1]) and len(raw) <= 10, raw
    assert raw_norms[0] > 1e3, raw_norms[0]
    assert all(math.isfinite(v) for v in clipped) and clipped[-1] < 0.01 * clipped[0], (clipped[0], clipped[-1])
    return (f"grad norm w.r.t. hidden state entering layer 1 {per_layer[0]:.3g} vs layer 8 {per_layer[-1]:.3g}; "
            f"no clipping: loss {raw[0]:.0f}, total grad norm {raw_norms[0]:.3g}, nan at step {len(raw)}; "
            f"clip_grad_norm 1.0: loss {clipped[0]:.0f} -> {clipped[-1]:.2f} over 200 steps")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

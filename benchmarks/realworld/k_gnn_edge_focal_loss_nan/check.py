"""Binary focal loss written with log(p) / log(1 - p) on sigmoid outputs (target.py): once an edge score
saturates, p == 1.0 (or 0.0) exactly in float32, the log is -inf and 0 * -inf = NaN."""

import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_k_gnn_edge_focal_loss_nan_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def focal_loss_clamped(logits, y, gamma=2.0, alpha=0.25):
    p = torch.sigmoid(logits).clamp(1e-7, 1 - 1e-7)
    pos = -alpha * y * (1 - p) ** gamma * torch.log(p)
    neg = -(1 - alpha) * (1 - y) * p**gamma * torch.log(1 - p)
    return (pos + neg).mean()


def _train(mod, loss_fn):
    t = mod.make_target()
    net = t["model"]
    opt = t["optimizer"](net.parameters())
    x, y = t["train_data"]
    losses = []
    for epoch in range(60):
        for i in range(0, len(x), 256):
            loss = loss_fn(net(x[i : i + 256]), y[i : i + 256])
            losses.append(loss.item())
            if not math.isfinite(losses[-1]):
                return losses
            opt.zero_grad()
            loss.backward()
            opt.step()
    return losses


def _check() -> str:
    mod = _load()
    bad = _train(mod, mod.focal_loss)
    good = _train(mod, focal_loss_clamped)
    assert not math.isfinite(bad[-1]), f"focal loss stayed finite: {bad[-1]}"
    assert all(math.isfinite(v) for v in good), "the clamped focal loss also went non-finite"
    return (
        f"log(p)/log(1-p) focal loss: {bad[0]:.4f} at step 0, {bad[-1]} at step {len(bad) - 1}; "
        f"probabilities clamped away from 0/1: finite for all {len(good)} steps (last {good[-1]:.2e})"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

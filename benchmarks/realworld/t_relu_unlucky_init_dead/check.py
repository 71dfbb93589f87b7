"""Train the target as given (unlucky draw) and with a lucky draw; look at the hidden unit and the predictions."""

import importlib.util
from pathlib import Path

import torch

_HERE = Path(__file__).resolve().parent


def _run(mod, seed):
    t = mod.make_target(seed)
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    w0 = model.hidden.weight.detach().clone()
    for _ in range(300):
        loss = t["loss_fn"](model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    xv, yv = t["val_data"]
    with torch.no_grad():
        alive = (model.hidden(xv) > 0).float().mean().item()
        logits = model(xv)
        acc = t["metric_fn"](logits, yv)
        n_classes_pred = int((logits > 0).unique().numel())
    moved = (model.hidden.weight.detach() - w0).abs().max().item()
    return acc, alive, moved, n_classes_pred, float(yv.mean())


def _check() -> str:
    spec = importlib.util.spec_from_file_location("t_relu_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    acc, alive, moved, ncls, pos_rate = _run(mod, 5)
    acc_ok, alive_ok, moved_ok, _, _ = _run(mod, 0)
    assert alive == 0.0 and moved == 0.0 and ncls == 1, (alive, moved, ncls)
    assert acc < 0.6 and acc_ok > 0.85, (acc, acc_ok)
    return (f"unlucky init: hidden ReLU active on {alive:.0%} of inputs, its weights moved {moved:.1e}, "
            f"one class predicted for all, val acc {acc:.2f} (positive rate {pos_rate:.2f}); "
            f"lucky init: active {alive_ok:.0%}, val acc {acc_ok:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

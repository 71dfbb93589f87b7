import importlib.util
import os

import torch


def _load(name):
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(name, os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load("rw_r_cnn_train95_test40_target").make_target()
    model, loss_fn, metric = t["model"], t["loss_fn"], t["metric_fn"]
    (xt, yt), (xv, yv) = t["train_data"], t["val_data"]
    opt = t["optimizer"](model.parameters())
    val_losses = []
    for _ in range(60):
        opt.zero_grad()
        loss_fn(model(xt), yt).backward()
        opt.step()
        with torch.no_grad():
            val_losses.append(loss_fn(model(xv), yv).item())
    with torch.no_grad():
        tr, va = metric(model(xt), yt), metric(model(xv), yv)
    best = min(range(len(val_losses)), key=val_losses.__getitem__)
    assert tr > 0.95 and va < 0.6 and val_losses[-1] > val_losses[best] + 0.1 and best < 45, (tr, va, best, val_losses[best], val_losses[-1])
    return (f"train acc {tr:.2f}, val acc {va:.2f}; val loss bottoms at step {best} ({val_losses[best]:.2f}) "
            f"then rises to {val_losses[-1]:.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())

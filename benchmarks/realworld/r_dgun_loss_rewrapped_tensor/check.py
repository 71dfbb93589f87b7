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
    import warnings

    t = _load("rw_r_dgun_loss_rewrapped_tensor_target").make_target()
    model, loss_fn, metric = t["model"], t["loss_fn"], t["metric_fn"]
    x, y = t["batch"]
    opt = t["optimizer"](model.parameters())
    before = metric(model(x), y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(30):
            opt.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            opt.step()
    grads = [p.grad for p in model.parameters()]
    after = metric(model(x), y)
    assert all(g is None for g in grads) and abs(after - before) < 1e-6, (before, after)
    return f"30 steps: PSNR {before:.2f} -> {after:.2f} dB, every parameter's .grad is still None"


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())

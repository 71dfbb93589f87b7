"""Train the target one image per step with BatchNorm updating, and again with BatchNorm frozen: the first fails on
validation (and its train-mode and eval-mode outputs disagree), the second fits."""

import importlib.util
from pathlib import Path

import torch
from torch import nn


def _target():
    spec = importlib.util.spec_from_file_location("q_gaic_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, freeze_bn):
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    for xb, yb in t["train_data"]:
        if freeze_bn:
            model.train()
            for m in model:
                if isinstance(m, nn.BatchNorm2d):
                    m.eval()
            opt.zero_grad()
            t["loss_fn"](model(xb), yb).backward()
            opt.step()
        else:
            t["train_step"](model, (xb, yb), opt, t["loss_fn"])
    xv, yv = t["val_data"]
    model.eval()
    with torch.no_grad():
        val = t["loss_fn"](model(xv), yv).item()
        model.train()
        single = torch.cat([model(xv[i:i + 1]) for i in range(8)]).flatten()
        model.eval()
        gap = (single - model(xv[:8]).flatten()).abs().mean().item()
    return val, gap, yv.var().item()


def _check() -> str:
    mod = _target()
    bad_val, bad_gap, var = _run(mod, freeze_bn=False)
    ok_val, _, _ = _run(mod, freeze_bn=True)
    assert bad_val > 0.5 * var and ok_val < 0.1 * var, (bad_val, ok_val, var)
    assert bad_gap > 0.1, bad_gap
    return (f"batch size 1, BN updating: val MSE {bad_val:.3f} (target variance {var:.3f}), per-image train-mode vs "
            f"eval-mode outputs differ by {bad_gap:.2f} on average; BN frozen: val MSE {ok_val:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

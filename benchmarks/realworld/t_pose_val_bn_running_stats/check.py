"""Runs the target's validation routine: outputs depend on batch size, and validating changes the model's BatchNorm buffers."""

import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("t_pose_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, (x, y) = t["model"], t["batch"]
    opt = t["optimizer"](model.parameters())
    for _ in range(20):
        model.train()
        opt.zero_grad()
        t["loss_fn"](model(x), y).backward()
        opt.step()
    vx, _ = t["val_data"]
    before = model.body[1].running_mean.clone()
    full = t["eval_fn"](model, vx)
    after = model.body[1].running_mean.clone()
    small = torch.cat([t["eval_fn"](model, vx[i:i + 2]) for i in range(0, len(vx), 2)])
    gap = (full - small).abs().max().item()
    drift = (after - before).abs().max().item()
    model.eval()
    with torch.no_grad():
        e_full = model(vx)
        e_small = torch.cat([model(vx[i:i + 2]) for i in range(0, len(vx), 2)])
    eval_gap = (e_full - e_small).abs().max().item()
    assert gap > 1e-2 and drift > 1e-3, (gap, drift)
    assert eval_gap < 1e-4, eval_gap
    return (
        f"validation in train mode: outputs differ by {gap:.3f} between batch 16 and batch 2, BatchNorm running mean "
        f"moved by {drift:.4f} during validation; in eval mode the difference is {eval_gap:.1e}"
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


"""Train with the 'freeze BN' option: running statistics stay fixed, but the BN weight and bias move."""

import copy
import importlib.util
from pathlib import Path

import torch
from torch import nn


def _load():
    spec = importlib.util.spec_from_file_location("s_softtriple_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    before = copy.deepcopy(model.state_dict())
    opt = t["optimizer"](model.parameters())
    g = torch.Generator().manual_seed(2)
    for _ in range(60):
        x = torch.randn(64, 32, generator=g)
        y = torch.randint(0, 8, (64,), generator=g)
        t["train_step"](model, (x, y), opt, t["loss_fn"])
    after = model.state_dict()
    stats = max((after[k] - before[k]).abs().max().item() for k in before if "running" in k)
    affine = max(
        (after[k] - before[k]).abs().max().item()
        for name, m in model.named_modules() if isinstance(m, nn.BatchNorm1d)
        for k in (f"{name}.weight", f"{name}.bias")
    )
    assert stats == 0.0, stats
    assert affine > 0.02, affine
    return f"with BN 'frozen': running stats max change {stats:.1e}, BN weight/bias max change {affine:.3f} after 60 steps"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

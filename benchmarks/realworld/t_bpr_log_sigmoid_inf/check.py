"""Runs the target's BPR loss: log(sigmoid(.)) gives inf loss and NaN gradients; logsigmoid stays finite."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _load():
    spec = importlib.util.spec_from_file_location("t_bpr_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, (inputs, y) = t["model"], t["batch"]
    pos, neg = model(*inputs)
    worst = (pos - neg).min().item()
    loss = t["loss_fn"]((pos, neg), y)
    loss.backward()
    nan_grads = sum(torch.isnan(p.grad).any().item() for p in model.parameters())
    stable = -F.logsigmoid(pos.detach() - neg.detach()).mean()
    assert worst < -104, worst
    assert not torch.isfinite(loss) and nan_grads > 0, (loss.item(), nan_grads)
    assert torch.isfinite(stable), stable
    return (
        f"min score gap {worst:.0f}: log(sigmoid) loss = {loss.item()}, NaN in {nan_grads} gradient tensors; "
        f"logsigmoid loss = {stable.item():.1f}"
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


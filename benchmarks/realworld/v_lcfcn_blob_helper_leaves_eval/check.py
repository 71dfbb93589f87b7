"""Imports target.py: after training steps through its own train_step the model is in eval mode, the BatchNorm
running statistics never moved from their init, and dropout was off during the forward used for the loss."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("v_lcfcn_target", p)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def _check() -> str:
    m = _load()
    t = m.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    bn = model.features[1]
    before = bn.running_mean.clone()
    for _ in range(5):
        t["train_step"](model, t["batch"], opt, t["loss_fn"])
    moved = (bn.running_mean - before).abs().max().item()
    mode = model.training
    # a correct step (model.train() right before the loss forward) moves the running stats
    m2 = _load().make_target()
    model2 = m2["model"]
    before2 = model2.features[1].running_mean.clone()
    model2.train()
    model2(m2["batch"][0])
    moved_ok = (model2.features[1].running_mean - before2).abs().max().item()
    assert not mode and moved == 0.0 and moved_ok > 1e-3, (mode, moved, moved_ok)
    return (
        f"after 5 training steps model.training={mode}, BN running_mean moved {moved:.1e} "
        f"(a forward in train mode moves it {moved_ok:.3f})"
    )


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

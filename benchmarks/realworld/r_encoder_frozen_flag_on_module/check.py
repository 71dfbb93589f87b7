"""frozen=True does not freeze: the encoder's weights move after one optimizer step."""

import importlib.util
from pathlib import Path

import torch


def _target():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("r_frozen_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    tg = _target().make_target()
    model, (x, y), loss_fn = tg["model"], tg["batch"], tg["loss_fn"]
    opt = tg["optimizer"](model.parameters())
    before = {n: p.detach().clone() for n, p in model.enc.named_parameters()}
    w0 = model.enc.feature_net[0].weight[0, 0, 0, 0].item()
    for _ in range(3):
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()
    w1 = model.enc.feature_net[0].weight[0, 0, 0, 0].item()
    moved = [n for n, p in model.enc.named_parameters() if not torch.equal(p, before[n])]
    trainable = sum(p.requires_grad for p in model.enc.parameters())
    assert len(moved) == len(before) and trainable == len(before), (moved, trainable)
    assert abs(w1 - w0) > 1e-4, (w0, w1)
    return (
        f"encoder built with frozen=True: {trainable}/{len(before)} encoder params still require grad, "
        f"{len(moved)} moved after 3 Adam steps (feature_net[0].weight[0,0,0,0] {w0:.4f} -> {w1:.4f})"
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

"""Predict the same image alone and inside a batch with the target's predict routine: the masks differ; after
model.eval() they agree."""

import importlib.util
from pathlib import Path

import torch


def _target():
    spec = importlib.util.spec_from_file_location("q_smp_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _target()
    t = mod.make_target()
    model = t["model"]
    xv, yv = t["val_data"]
    state = {k: v.clone() for k, v in model.state_dict().items()}
    single = mod.predict(model, xv[:1])[0]
    batched = mod.predict(model, xv[:16])[0]
    differ = (single != batched).float().mean().item()
    acc_single = (single == yv[0]).float().mean().item()
    acc_batched = (batched == yv[0]).float().mean().item()
    model.load_state_dict(state)
    model.eval()
    with torch.no_grad():
        e1 = model(xv[:1]).argmax(1)[0]
        e16 = model(xv[:16]).argmax(1)[0]
    assert differ > 0.05, differ
    assert torch.equal(e1, e16)
    return (f"train-mode predict: {differ:.0%} of image 0's pixels change between batch of 1 and batch of 16 "
            f"(pixel acc {acc_single:.2f} vs {acc_batched:.2f}); after model.eval(): identical masks")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

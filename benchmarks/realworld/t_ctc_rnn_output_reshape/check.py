"""Frame accuracy with batch size 1 vs 32, and whether sample 0's output depends on the other samples."""

import importlib.util
from pathlib import Path

import torch

_HERE = Path(__file__).resolve().parent


def _train(mod, bs, steps=150):
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    g = torch.Generator().manual_seed(0)
    for _ in range(steps):
        idx = torch.randint(0, x.shape[0], (bs,), generator=g)
        loss = t["loss_fn"](model(x[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    return t, model


def _check() -> str:
    spec = importlib.util.spec_from_file_location("t_ctc_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    t, model = _train(mod, bs=32)
    xv, yv = t["val_data"]
    with torch.no_grad():
        acc_b32 = t["metric_fn"](model(xv[:32]), yv[:32])
        acc_b1 = sum(t["metric_fn"](model(xv[i:i + 1]), yv[i:i + 1]) for i in range(32)) / 32
        a = model(xv[:4])[0]
        xv2 = xv[:4].clone()
        xv2[1:] = torch.randn_like(xv2[1:])
        b = model(xv2)[0]
    leak = (a - b).abs().max().item()
    _, model1 = _train(mod, bs=1, steps=400)
    with torch.no_grad():
        acc_train_b1 = sum(t["metric_fn"](model1(xv[i:i + 1]), yv[i:i + 1]) for i in range(32)) / 32
    assert acc_b32 < 0.45 and acc_train_b1 > 0.7, (acc_b32, acc_train_b1)
    assert leak > 1e-3, leak
    return (f"trained with batch 32: frame acc {acc_b32:.2f} on a batch of 32 ({acc_b1:.2f} fed one by one); "
            f"trained with batch 1: {acc_train_b1:.2f}; sample 0's logits move by {leak:.3f} when only samples 1-3 change")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

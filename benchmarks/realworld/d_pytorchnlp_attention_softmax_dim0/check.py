import importlib.util
import pathlib

import torch
import torch.nn as nn

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_d_pytorchnlp_attention_softmax_dim0_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(t, model):
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for step in range(400):
        i = (step * 32) % len(x)
        opt.zero_grad()
        t["loss_fn"](model(x[i : i + 32]), y[i : i + 32]).backward()
        opt.step()
    vx, vy = t["val_data"]
    with torch.no_grad():
        return t["metric_fn"](model(vx), vy)


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    attn = mod.Attention(4)
    with torch.no_grad():
        _, w1 = attn(torch.randn(1, 1, 4), torch.randn(1, 5, 4))
        _, w8 = attn(torch.randn(8, 1, 4), torch.randn(8, 5, 4))
    assert torch.allclose(w1, torch.ones_like(w1))
    row_sums = w8.sum(-1)
    assert float((row_sums - 1).abs().max()) > 0.2
    acc_bug = _train(t, t["model"])
    torch.manual_seed(0)
    fixed = mod.Classifier()
    fixed.attn.softmax = nn.Softmax(dim=-1)
    acc_fix = _train(t, fixed)
    assert acc_fix > acc_bug + 0.15, (acc_bug, acc_fix)
    return (
        f"batch of 1: all attention weights are 1.0; batch of 8: weights sum to {float(row_sums.min()):.2f}.."
        f"{float(row_sums.max()):.2f} over the context; val accuracy {acc_bug:.2f} vs {acc_fix:.2f} with softmax(dim=-1)"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

"""Train the decoder, then score held-out images: batched validation in train mode (as the loop does), image by image
in train mode (as the test script would without eval()), and image by image after model.eval()."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F

_spec = importlib.util.spec_from_file_location("x_hidden_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _check() -> str:
    tg = _t.make_target()
    model = tg["model"]
    opt = tg["optimizer"](model.parameters())
    g = torch.Generator().manual_seed(1)
    for _ in range(200):
        x, y = _t.make_batch(g)
        loss = F.binary_cross_entropy_with_logits(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        train_err = _t.bit_error(model(x), y)
    xv, yv = _t.make_batch(torch.Generator().manual_seed(8), n=256)
    batched = [(xv[i:i + 64], yv[i:i + 64]) for i in range(0, 256, 64)]
    singles = [(xv[i:i + 1], yv[i:i + 1]) for i in range(256)]
    running_before = model.bn.running_mean.clone()
    val_train_mode = _t.validate(model, batched)
    single_train_mode = _t.validate(model, singles)
    stats_moved = (model.bn.running_mean - running_before).abs().max().item()
    model.eval()
    single_eval = _t.validate(model, singles)
    assert val_train_mode < 0.05 and train_err < 0.05, (val_train_mode, train_err)
    assert single_train_mode > 0.35 and single_eval < 0.05, (single_train_mode, single_eval)
    assert stats_moved > 1e-3, stats_moved
    return (f"bit error: train batch {train_err:.3f}, validation in train mode (batches of 64) {val_train_mode:.3f}, "
            f"same images one at a time in train mode {single_train_mode:.3f} (running stats moved by "
            f"{stats_moved:.3f} during validation); one at a time after eval() {single_eval:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

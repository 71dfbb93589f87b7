"""Train, then validate the same weights in training mode (as the loop does) and in eval mode."""

import importlib.util
from pathlib import Path

import torch
import torch.nn as nn

_spec = importlib.util.spec_from_file_location("z_freeadv_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _check() -> str:
    torch.manual_seed(0)
    model = _t.Net()
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    g = torch.Generator().manual_seed(1)
    for _ in range(150):
        x, y = _t.make_data(g, 64)
        opt.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
    xv, yv = _t.make_data(torch.Generator().manual_seed(7), 256)
    rm_before = model.bn1.running_mean.clone()
    small = [_t.validate(model, (xv[i:i + 4], yv[i:i + 4])) for i in range(0, 256, 4)]
    acc_small_train = sum(small) / len(small)
    moved = (model.bn1.running_mean - rm_before).abs().max().item()
    model.eval()
    acc_eval = _t.validate(model, (xv, yv))
    small_eval = [_t.validate(model, (xv[i:i + 4], yv[i:i + 4])) for i in range(0, 256, 4)]
    acc_small_eval = sum(small_eval) / len(small_eval)
    assert moved > 1e-3, moved
    assert abs(acc_small_eval - acc_eval) < 1e-6, (acc_small_eval, acc_eval)
    assert acc_eval - acc_small_train > 0.1, (acc_eval, acc_small_train)
    return (f"validation in train mode with batches of 4: acc {acc_small_train:.3f}, BN running_mean moved by "
            f"{moved:.3f} during validation; in eval mode: acc {acc_eval:.3f} (batches of 4: {acc_small_eval:.3f})")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

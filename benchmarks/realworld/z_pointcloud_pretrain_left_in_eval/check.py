"""Pre-training loop with a validation pass after epoch 1: is the second epoch trained in train mode?"""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F

_spec = importlib.util.spec_from_file_location("z_pc_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _run(train_each_epoch):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = _t.PointSegNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    val = _t.make_clouds(8, torch.Generator().manual_seed(99))
    model.train()
    modes, bn_after_epoch = [], []
    for epoch in range(3):
        if train_each_epoch:
            model.train()
        for _ in range(5):
            modes.append(model.training)
            _t.train_step(model, _t.make_clouds(8, g), opt, F.cross_entropy)
        bn_after_epoch.append(model.conv1[1].running_mean.clone())
        _t.evaluate(model, val)
    drift_later = (bn_after_epoch[2] - bn_after_epoch[0]).abs().max().item()
    return modes, drift_later


def _check() -> str:
    modes_bug, drift_bug = _run(False)
    modes_ok, drift_ok = _run(True)
    assert all(modes_bug[:5]) and not any(modes_bug[5:]), modes_bug
    assert drift_bug == 0.0, drift_bug
    assert all(modes_ok) and drift_ok > 1e-3, drift_ok
    n_eval = sum(not m for m in modes_bug)
    return (f"target loop: {n_eval}/{len(modes_bug)} training steps run with model.training=False after the first "
            f"validation, BatchNorm running_mean frozen from epoch 1 to 3 (change {drift_bug}); with model.train() per "
            f"epoch: all steps in train mode, running_mean moves by {drift_ok:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

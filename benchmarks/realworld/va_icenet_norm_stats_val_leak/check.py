import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("va_icenet_norm_stats_val_leak_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    years, x, sic, train, val = mod.splits()
    tr_min, tr_max = x[train].min(0).values, x[train].max(0).values
    used_max = model.maximum
    # the statistics the model normalises with are not the training-split statistics
    moved = (used_max - tr_max).abs().max().item()
    assert moved > 0.05, moved
    # and the extreme values come from validation-period rows (2022)
    stats_rows = years <= mod.END_YEAR - 3
    arg = x[stats_rows].argmax(0)
    from_val = int((years[stats_rows][arg] > mod.TRAIN_END).sum())
    assert from_val >= 1, from_val
    # training inputs no longer span [0, 1]
    xn = model.normalise(x[train])
    top = xn.max(0).values.min().item()
    assert top < 0.99, top
    return (f"normaliser max differs from train-only max by up to {moved:.3f}; {from_val}/{x.shape[1]} feature maxima "
            f"come from {mod.TRAIN_END + 1} (validation); a train feature tops out at {top:.3f} instead of 1.0")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())

"""The same sentence embedded alone vs inside a padded batch, with the target collator vs a 0-padded mask."""

import importlib.util
from pathlib import Path

import torch

_spec = importlib.util.spec_from_file_location("y_angle_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _fixed_collate(features):
    length = max(len(f["input_ids"]) for f in features)
    return {
        "input_ids": _t.pad_like_ids([f["input_ids"] for f in features], length, _t.PAD_ID),
        "attention_mask": _t.pad_like_ids([f["attention_mask"] for f in features], length, 0),
    }


def _drift(collate):
    model = _t.make_target()["model"].eval()
    short = [5, 17, 42, 8]
    longer = list(range(10, 40))
    with torch.no_grad():
        alone = model(**collate(_t.features([short])))[0]
        batched = collate(_t.features([short, longer]))
        in_batch = model(**batched)[0]
    pad_mask_values = batched["attention_mask"][0, len(short):]
    return (alone - in_batch).norm().item() / alone.norm().item(), pad_mask_values


def _check() -> str:
    drift_bug, mask_bug = _drift(_t.collate)
    drift_ok, mask_ok = _drift(_fixed_collate)
    assert bool((mask_bug == 1).all()) and bool((mask_ok == 0).all())
    assert drift_bug > 0.2, drift_bug
    assert drift_ok < 1e-5, drift_ok
    return (f"4-token sentence padded to 30: attention_mask at the 26 padded positions = {int(mask_bug[0])} "
            f"(pad id), embedding changes by {drift_bug:.1%} vs encoding it alone; mask padded with 0: "
            f"change {drift_ok:.1e}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

import importlib.util
import os

import torch
import torch.nn.functional as F


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_a_unitxt_stale_cache_card_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    tx, _ = t["train_data"]
    vx, _ = t["val_data"]
    expected_x, _ = mod.process_uncached(mod.Card("cards.sensor_binary", [mod.standardize]), seed=1, n=256)
    stale = (tx - expected_x).abs().max().item()
    gap = (tx.mean(0) - vx.mean(0)).abs().max().item()
    ratio = (tx.std(0) / vx.std(0)).mean().item()
    assert stale > 1.0 and gap > 10 and ratio > 5, (stale, gap, ratio)
    return (f"train split differs from what the current card produces (max abs diff {stale:.1f}); its feature means "
            f"differ from the val split by {gap:.1f} and its stds are x{ratio:.1f} larger")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny tensors: thread start-up costs more than the math
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())

"""Run the target's test routine (model left in train mode, one image at a time) and the same routine after
model.eval(), on the trained counting network."""
import copy
import importlib.util
from pathlib import Path

import torch


def _load_target():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("v_dmcount_target", p)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def _check() -> str:
    t = _load_target()
    tgt = t.make_target()
    x_val, y_val = tgt["val_data"]
    model = tgt["model"]
    assert model.training
    ref = copy.deepcopy(model).eval()
    mae_eval = t.count_mae(t.test_routine(ref, x_val), y_val)
    bad_model = copy.deepcopy(model)
    pred_bad = t.test_routine(bad_model, x_val)
    mae_bad = t.count_mae(pred_bad, y_val)
    bad_counts = pred_bad.sum(dim=(1, 2, 3))
    spread_bad = bad_counts.std().item()
    spread_true = y_val.std().item()
    assert mae_bad > 3 * mae_eval and mae_eval < 2.5, (mae_bad, mae_eval)
    assert spread_bad < 0.5 * spread_true, (spread_bad, spread_true)
    return (f"test routine without model.eval(): count MAE {mae_bad:.2f}, predicted-count std {spread_bad:.2f} "
            f"(true {spread_true:.2f}); same checkpoint in eval mode: MAE {mae_eval:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

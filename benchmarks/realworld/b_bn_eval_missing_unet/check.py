import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_b_bn_eval_missing_unet_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, (x, y) = t["model"], t["batch"]
    rm_before = model.enc[1].running_mean.clone()
    alone = t["eval_fn"](model, (x[:1], y[:1]))
    in_batch = t["eval_fn"](model, (x, y))[:1]
    diff = float((alone - in_batch).abs().max())
    moved = float((model.enc[1].running_mean - rm_before).abs().sum())
    assert diff > 1e-3 and moved > 0, (diff, moved)
    return (f"volume 0 predicted alone vs inside a batch of 4 differs by {diff:.3f}; "
            f"validation moved BN running_mean by {moved:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

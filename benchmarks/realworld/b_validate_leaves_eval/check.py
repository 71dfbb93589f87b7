import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_b_validate_leaves_eval_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, batch, loss_fn = t["model"], t["batch"], t["loss_fn"]
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    moved = []
    for _ in range(6):
        before = model.bn.running_mean.clone()
        was_training = model.training
        t["train_step"](model, batch, opt, loss_fn)
        moved.append((was_training, float((model.bn.running_mean - before).abs().sum())))
    frozen_steps = [m for tr, m in moved if not tr]
    assert moved[0][0] and moved[0][1] > 0
    assert len(frozen_steps) >= 3 and all(m == 0.0 for m in frozen_steps), moved
    return (f"{len(frozen_steps)} of 6 training steps ran with model.training=False after the first validation; "
            f"BatchNorm running_mean did not move during them")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

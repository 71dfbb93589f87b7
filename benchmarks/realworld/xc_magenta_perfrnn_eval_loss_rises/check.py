import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("xc_magenta_perfrnn_eval_loss_rises_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    val = t["val_data"][0]
    train_curve, val_curve = [], []
    for step in range(81):
        train_loss = t["train_step"](model, t["batch"], opt, loss_fn)
        if step % 5 == 0:
            train_curve.append(train_loss)
            val_curve.append(loss_fn(t["eval_fn"](model, val), val[1]).item())
    best = min(range(len(val_curve)), key=val_curve.__getitem__)
    assert val_curve[best] < val_curve[0] - 0.4, val_curve          # the model does learn something real first
    assert best < len(val_curve) - 4, (best, val_curve)              # ...then eval loss turns around
    assert val_curve[-1] > val_curve[best] + 0.8, val_curve
    assert train_curve[-1] < 0.3, train_curve                        # while the 16 training excerpts are memorised
    return (f"train loss {train_curve[0]:.2f} -> {train_curve[-1]:.2f}; eval loss {val_curve[0]:.2f} -> "
            f"min {val_curve[best]:.2f} at step {best * 5} -> {val_curve[-1]:.2f} at step 80")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())

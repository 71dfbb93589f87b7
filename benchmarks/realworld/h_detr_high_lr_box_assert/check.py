import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_h_detr_high_lr_box_assert_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, lr_scale):
    torch.manual_seed(0)
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    for group in opt.param_groups:
        group["lr"] *= lr_scale
    x, y = t["train_data"]
    losses = []
    for step in range(300):
        i = (step * 32) % len(x)
        try:
            loss = t["loss_fn"](model(x[i : i + 32]), y[i : i + 32])
        except AssertionError:
            return step, losses
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return None, losses


def _check() -> str:
    mod = _load()
    crash_step, bad = _train(mod, 1.0)
    ok_step, good = _train(mod, 0.1)
    assert crash_step is not None and ok_step is None, (crash_step, ok_step)
    first, last = sum(good[:20]) / 20, sum(good[-20:]) / 20
    assert last < 0.85 * first, (first, last)
    return (f"configured lr: box-IoU assertion at step {crash_step} (loss before it: {bad[-1]:.3g}); "
            f"lr/10: 300 steps, loss {first:.3f} -> {last:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_g_tiny_detector_batch1_loss_explodes_target", _HERE / "target.py")
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
    log = []
    for i in range(200):
        opt.zero_grad()
        loss = t["loss_fn"](model(x[i : i + 1]), y[i : i + 1])
        log.append(loss.item())
        if not math.isfinite(log[-1]):
            break
        loss.backward()
        opt.step()
    return log


def _check() -> str:
    mod = _load()
    bad, ok = _train(mod, 1.0), _train(mod, 0.01)
    ok_first, ok_last = sum(ok[:20]) / 20, sum(ok[-20:]) / 20
    assert not math.isfinite(bad[-1]) or max(bad) > 1e6, bad[-5:]
    assert all(math.isfinite(v) for v in ok) and ok_last < ok_first, (ok_first, ok_last)
    return (f"batch size 1: loss {bad[0]:.2f} -> max {max(v for v in bad if math.isfinite(v)):.3g} -> {bad[-1]} by iteration {len(bad)}"
            f" at the configured lr; at lr/100 it falls from {ok_first:.2f} to {ok_last:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

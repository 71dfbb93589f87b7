import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_j_vae_log_eps_order_nan_a_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    first, last_finite, nan_step = None, None, None
    step = 0
    for _ in range(40):
        for i in range(0, len(x), 64):
            opt.zero_grad()
            loss = loss_fn(model(x[i : i + 64]), y[i : i + 64])
            if not math.isfinite(loss.item()):
                nan_step = step
                break
            first = loss.item() if first is None else first
            last_finite = loss.item()
            loss.backward()
            opt.step()
            step += 1
        if nan_step is not None:
            break
    assert nan_step is not None and last_finite < first, (nan_step, first, last_finite)
    return f"loss fell from {first:.1f} to {last_finite:.1f}, then turned NaN at step {nan_step}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        torch.manual_seed(0)
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

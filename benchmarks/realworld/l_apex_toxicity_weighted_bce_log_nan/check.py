import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_l_apex_toxicity_weighted_bce_log_nan_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _eps_bce(y_pred, target, eps=1e-7):
    y_true, w = target
    return -(w * (y_true * torch.log(y_pred + eps) + (1 - y_true) * torch.log(1 - y_pred + eps))).mean()


def _train(mod, loss_fn, steps=300):
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, (y, w) = t["train_data"]
    for step in range(steps):
        i = (step * 64) % len(x)
        out = model(x[i : i + 64])
        loss = loss_fn(out, (y[i : i + 64], w[i : i + 64]))
        if not math.isfinite(loss.item()):
            return step, loss.item(), float((out == 1.0).sum())
        opt.zero_grad()
        loss.backward()
        opt.step()
    return None, loss.item(), 0.0


def _check() -> str:
    mod = _load()
    assert torch.tensor(1 - 1e-8, dtype=torch.float32).item() == 1.0
    step, val, n_one = _train(mod, mod.weighted_bce)
    step_fix, val_fix, _ = _train(mod, _eps_bce)
    assert step is not None and n_one > 0, (step, val)
    assert step_fix is None and math.isfinite(val_fix), (step_fix, val_fix)
    return (
        f"hand-written weighted BCE: loss {val} at step {step} ({int(n_one)} predictions exactly 1.0; the clamp to 1-1e-8 "
        f"rounds to 1.0 in float32); with eps inside the logs the loss stays finite ({val_fix:.2e} after 300 steps)"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

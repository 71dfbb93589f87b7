import importlib.util
import warnings
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("va_deepprotein_mse_broadcast_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit(mod, fix):
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    x, y = t["train_data"]
    opt = t["optimizer"](model.parameters())
    warned = False
    for step in range(150):
        i = (step * 64) % len(x)
        out = model(x[i:i + 64])
        if fix:
            out = out.squeeze(1)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            loss = loss_fn(out, y[i:i + 64])
            warned |= any("target size" in str(m.message) for m in w)
        opt.zero_grad()
        loss.backward()
        opt.step()
    xv, yv = t["val_data"]
    with torch.no_grad():
        pred = model(xv).squeeze(1)
    return ((pred - yv) ** 2).mean().item(), pred.std().item(), yv.var().item(), warned


def _run() -> str:
    mod = _load()
    torch.manual_seed(0)
    mse, spread, var, warned = _fit(mod, fix=False)
    torch.manual_seed(0)
    mse_ok, _, _, warned_ok = _fit(mod, fix=True)
    assert warned and not warned_ok
    assert mse > 0.8 * var, (mse, var)
    assert mse_ok < 0.5 * var, (mse_ok, var)
    return (f"size-mismatch warning raised; val per-sample MSE {mse:.3f} vs label variance {var:.3f} "
            f"(pred std {spread:.3f}); with matching shapes val MSE {mse_ok:.3f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())

import importlib.util
import pathlib

import torch
import torch.nn as nn

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_k_tiny_mlp_mae_floor_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit(mod, model):
    t = mod.make_target()
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    xv, yv = t["val_data"]
    curve = []
    for epoch in range(60):
        for i in range(0, len(x), 64):
            loss = t["loss_fn"](model(x[i : i + 64]), y[i : i + 64])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.no_grad():
            curve.append(((model(x) - y).abs().mean().item(), (model(xv) - yv).abs().mean().item()))
    return curve


def _check() -> str:
    mod = _load()
    torch.manual_seed(0)
    small = _fit(mod, mod.make_target()["model"])
    torch.manual_seed(0)
    wide = _fit(mod, nn.Sequential(nn.Linear(3, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1)))
    tr_mid, tr_end, va_end = small[29][0], small[-1][0], small[-1][1]
    assert tr_end > 0.9 * tr_mid, (tr_mid, tr_end)           # flat over the second half
    assert abs(va_end - tr_end) < 0.25 * tr_end, (tr_end, va_end)      # no generalisation gap
    assert wide[-1][0] < 0.8 * tr_end, (wide[-1][0], tr_end)           # more capacity fits far better
    return (
        f"3-6-6-1 MLP: train MAE {small[0][0]:.3f} -> {tr_mid:.3f} (epoch 30) -> {tr_end:.3f} (epoch 60), "
        f"val MAE {va_end:.3f}; same data and optimiser with 64-unit layers: train MAE {wide[-1][0]:.3f}"
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

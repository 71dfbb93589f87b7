import importlib.util
import pathlib

import torch
import torch.nn as nn

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_l_glow_nonlinear_classifier_one_hidden_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit(t, model, steps):
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for s in range(steps):
        i = (s * 128) % len(x)
        opt.zero_grad()
        t["loss_fn"](model(x[i : i + 128]), y[i : i + 128]).backward()
        opt.step()
    with torch.no_grad():
        vx, vy = t["val_data"]
        return t["metric_fn"](model(x), y), t["metric_fn"](model(vx), vy), t["loss_fn"](model(x), y).item()


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    tr1, va1, l1 = _fit(t, t["model"], 600)
    torch.manual_seed(0)
    tr_long, va_long, l_long = _fit(t, mod.make_model(), 1200)
    torch.manual_seed(0)
    bigger = nn.Sequential(nn.Linear(2, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 2))
    tr2, va2, l2 = _fit(t, bigger, 600)
    assert tr1 < 0.85 and abs(tr1 - va1) < 0.06, (tr1, va1)
    assert tr_long < 0.88, tr_long
    assert tr2 > 0.93 and va2 > 0.9, (tr2, va2)
    return (
        f"one hidden layer (2 units): train acc {tr1:.2f} / val {va1:.2f}, loss {l1:.2f} "
        f"(2x longer: train {tr_long:.2f}); two hidden layers: train {tr2:.2f} / val {va2:.2f}"
    )


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

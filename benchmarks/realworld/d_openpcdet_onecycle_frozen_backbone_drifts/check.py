import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_d_openpcdet_onecycle_frozen_backbone_drifts_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _backbone_drift(t, make_opt, steps=1000):
    model = t["model"]
    before = [p.detach().clone() for p in model.backbone.parameters()]
    opt = make_opt(model.parameters())
    x, y = t["train_data"]
    for i in range(steps):
        j = (i * 32) % len(x)
        opt.zero_grad()
        t["loss_fn"](model(x[j : j + 32]), y[j : j + 32]).backward()
        opt.step()
    after = list(model.backbone.parameters())
    return max(((a - b).norm() / b.norm()).item() for a, b in zip(after, before))


def _check() -> str:
    mod = _load()
    drift_onecycle = _backbone_drift(mod.make_target(), mod.make_target()["optimizer"])
    drift_adam = _backbone_drift(mod.make_target(), lambda p: torch.optim.Adam(p, lr=3e-3))
    assert drift_onecycle > 0.005 and drift_adam == 0.0, (drift_onecycle, drift_adam)
    return (f"1000 steps: frozen backbone moved by {100 * drift_onecycle:.1f}% (relative norm) with the one-cycle "
            f"wrapper, {100 * drift_adam:.1f}% with plain Adam")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

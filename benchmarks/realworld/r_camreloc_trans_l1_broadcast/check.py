"""Train the target's model with its L1 loss; per-sample translation error stays near the predict-the-median
baseline, while the same model trained with the shapes matched learns the mapping."""

import importlib.util
import warnings
from pathlib import Path

import torch
import torch.nn as nn


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("r_camreloc_trans_l1_broadcast_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, t, fix):
    torch.manual_seed(0)
    model = mod.PoseNet()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    X, Y = t["train_data"]
    for _ in range(15):
        for i in range(0, len(X), 32):
            out = model(X[i:i + 32])
            if fix:
                out = out.flatten(1)
            loss = t["loss_fn"](out, Y[i:i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
    Xv, Yv = t["val_data"]
    with torch.no_grad():
        return (model(Xv).flatten(1) - Yv).abs().mean().item()


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    out = t["model"](t["batch"][0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        per_elem = nn.L1Loss(reduction="none")(out, t["batch"][1])
    assert tuple(per_elem.shape) == (32, 3, 32, 3), per_elem.shape
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bad = _train(mod, t, fix=False)
    good = _train(mod, t, fix=True)
    Yv = t["val_data"][1]
    baseline = (Yv - t["train_data"][1].median(0).values).abs().mean().item()
    assert bad > 0.85 * baseline and bad > 2.5 * good, (bad, good, baseline)
    return (f"L1 loss tensor broadcasts to {tuple(per_elem.shape)}; val translation error {bad:.3f} "
            f"(median baseline {baseline:.3f}) vs {good:.3f} with shapes matched")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

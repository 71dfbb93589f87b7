"""Fit the target's model on its training data; every validation row is also a training row, and the
validation MSE is far below the MSE on unseen test cell lines."""

import importlib.util
from pathlib import Path

import torch
from torch import nn


def _load():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("o_drug_response_val_in_train_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    (xt, yt, gt), (xv, yv, gv), (xs, ys, gs) = mod.build_datasets()
    train_rows = {tuple(r) for r in xt.tolist()}
    overlap = sum(tuple(r) in train_rows for r in xv.tolist())
    torch.manual_seed(0)
    model = mod.make_model()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    mse = nn.MSELoss()
    for epoch in range(150):
        perm = torch.randperm(len(xt))
        for i in range(0, len(xt), 60):
            idx = perm[i:i + 60]
            opt.zero_grad()
            mse(model(xt[idx]), yt[idx]).backward()
            opt.step()
    with torch.no_grad():
        val, test = mse(model(xv), yv).item(), mse(model(xs), ys).item()
    shared_groups = len(set(gv.tolist()) & set(gt.tolist()))
    assert overlap == len(xv) and shared_groups == len(set(gv.tolist())), (overlap, shared_groups)
    assert test > 3 * val, (val, test)
    return (f"{overlap}/{len(xv)} validation rows (all {shared_groups} val cell lines) are in the training set; "
            f"val MSE {val:.3f} vs test MSE on unseen cell lines {test:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())

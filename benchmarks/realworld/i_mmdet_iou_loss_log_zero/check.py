"""Boxes that do not overlap their targets: -log(0) = inf on the first batch, NaN weights after one step."""

import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_i_mmdet_iou_loss_log_zero_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _load().make_target()
    model, (x, y) = t["model"], t["train_data"]
    opt = t["optimizer"](model.parameters())
    loss = t["loss_fn"](model(x[:32]), y[:32])
    opt.zero_grad()
    loss.backward()
    opt.step()
    first = loss.item()
    nan_params = sum(int(torch.isnan(p).any()) for p in model.parameters())
    later = t["loss_fn"](model(x[32:64]), y[32:64]).item()
    assert first == float("inf") and nan_params > 0 and later != later, (first, nan_params, later)
    return f"first loss {first}, {nan_params} parameter tensors NaN after one step, next loss {later}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

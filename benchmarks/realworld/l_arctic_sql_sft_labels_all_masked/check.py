import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_l_arctic_sql_sft_labels_all_masked_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    x, y = t["val_data"]
    n_sup = int((y != -100).sum())
    loss = t["loss_fn"](model(x), y)
    loss.backward()
    gnorm = sum(float(p.grad.abs().sum()) for p in model.parameters() if p.grad is not None)
    assert n_sup == 0, n_sup
    assert not math.isfinite(loss.item()), loss.item()
    assert gnorm == 0.0, gnorm
    return f"supervised tokens in the eval set: {n_sup} of {y.numel()}; eval loss = {loss.item()}; gradient sum {gnorm}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

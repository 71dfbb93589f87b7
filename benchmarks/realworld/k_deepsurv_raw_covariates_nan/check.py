import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_k_deepsurv_raw_covariates_nan_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, standardize):
    t = mod.make_target()
    torch.manual_seed(0)
    model = mod.CoxMLP()
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    if standardize:
        x = (x - x.mean(0)) / x.std(0)
    losses = []
    for _ in range(15):
        for i in range(0, len(x), 128):
            opt.zero_grad()
            loss = t["loss_fn"](model(x[i : i + 128]), y[i : i + 128])
            losses.append(loss.item())
            loss.backward()
            opt.step()
    return losses


def _check() -> str:
    mod = _load()
    raw, std = _train(mod, False), _train(mod, True)
    assert math.isfinite(raw[0]) and not any(math.isfinite(v) for v in raw[2:]), raw[:5]
    assert all(math.isfinite(v) for v in std) and std[-1] < std[0] - 0.1, (std[0], std[-1])
    first_bad = next(i for i, v in enumerate(raw) if not math.isfinite(v))
    return (
        f"raw covariates: first loss {raw[0]:.3g}, non-finite from step {first_bad}; "
        f"standardized: {std[0]:.3f} -> {std[-1]:.3f}"
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

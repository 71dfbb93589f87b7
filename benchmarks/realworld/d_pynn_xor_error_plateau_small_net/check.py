import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_d_pynn_xor_error_plateau_small_net_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit(t, model, steps=1500):
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    for _ in range(steps):
        opt.zero_grad()
        t["loss_fn"](model(x), y).backward()
        opt.step()
    with torch.no_grad():
        return t["loss_fn"](model(x), y).item(), t["metric_fn"](model(x), y)


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    loss_small, acc_small = _fit(t, t["model"])
    torch.manual_seed(0)
    loss_wide, acc_wide = _fit(t, mod.make_net(hidden=16))
    assert acc_small < 0.8 and loss_small > 0.3 and acc_wide > 0.95, (loss_small, acc_small, acc_wide)
    return (f"1500 steps: training accuracy {acc_small:.2f} (loss {loss_small:.2f}) with 1 hidden unit, "
            f"{acc_wide:.2f} (loss {loss_wide:.2f}) with 16")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

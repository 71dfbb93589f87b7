import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_h_dlwp_torch_train_step_no_zero_grad_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, clear):
    torch.manual_seed(0)
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    losses = []
    for _ in range(3):
        for batch in t["train_data"]:
            if clear:
                opt.zero_grad()
            losses.append(float(t["train_step"](model, batch, opt, t["loss_fn"])))
    vx, vy = t["val_data"]
    with torch.no_grad():
        return t["metric_fn"](model(vx), vy), losses


def _check() -> str:
    mod = _load()
    acc_bug, losses = _train(mod, clear=False)
    acc_ok, _ = _train(mod, clear=True)
    low = min(losses[:40])
    late = sum(losses[-16:]) / 16
    assert acc_ok > 0.85 and acc_bug < acc_ok - 0.2 and late > 1.5 * low, (acc_bug, acc_ok, low, late)
    return (f"3 epochs: val accuracy {acc_bug:.2f} with the train_step as written vs {acc_ok:.2f} when gradients are "
            f"cleared each step; its loss went down to {low:.2f} early and averages {late:.2f} at the end")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
